// Mapping between Memoria's results (citations path#Lx-Ly) and the shapes
// OpenClaw's memory_search and memory_get return.

/** A Memoria recall result, as the recall tool's structured content has it. */
export type MemoriaResult = {
  id?: string;
  kind?: string;
  timestamp?: string;
  event_time?: { start?: string; end?: string };
  entities?: string[];
  content: string;
  truncated?: number;
  confidence?: number;
  source: string;
  score: number;
  superseded_by?: Array<{ source: string; timestamp?: string }>;
  supersedes?: Array<{ source: string; timestamp?: string }>;
  // Where a line of OpenClaw's own files came from (docs/openclaw.md, "The layout").
  observed?: string;
  status?: string;
  imported_from?: string;
  machine_summary?: boolean;
};

export type MemoriaRecallOutput = {
  results?: MemoriaResult[];
  lexical_only?: string;
  semantic_lag?: number;
};

/** One hit the way OpenClaw's memory_search returns it (MemorySearchResult plus citation and corpus). */
export type SearchHit = {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  source: "memory";
  corpus: "memory";
  citation?: string;
  // Memoria's own fields, kept for the agent.
  kind?: string;
  timestamp?: string;
  eventTime?: { start?: string; end?: string };
  entities?: string[];
  confidence?: number;
  supersededBy?: string[];
  /** USER.md: the day the entry's mark says it was observed, and its status (active or superseded). */
  observed?: string;
  status?: string;
  /** memory/imports/<source>/: the assistant the line was imported from (codex, claude-code, hermes). */
  importedFrom?: string;
  /** DREAMS.md, memory/dreaming/: a summary the dreaming sweep wrote, not a record. */
  machineSummary?: boolean;
};

export type Citation = { path: string; startLine: number; endLine: number };

/** Parse "path#L12-L15" or "path#L12"; null when it is not a line citation. */
export function parseCitation(source: string): Citation | null {
  const m = /^(.+)#L(\d+)(?:-L?(\d+))?$/.exec(source.trim());
  if (!m) return null;
  const startLine = Number(m[2]);
  const endLine = m[3] ? Number(m[3]) : startLine;
  if (startLine < 1 || endLine < startLine) return null;
  return { path: m[1], startLine, endLine };
}

/** Format a citation as OpenClaw does: path#L5, or path#L5-L7. */
export function formatCitation(c: Citation): string {
  return c.startLine === c.endLine ? `${c.path}#L${c.startLine}` : `${c.path}#L${c.startLine}-L${c.endLine}`;
}

/** Map Memoria recall results to OpenClaw search hits, best first. */
export function toSearchHits(results: MemoriaResult[], withCitations: boolean): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const r of results) {
    const c = parseCitation(r.source);
    if (!c) continue; // every Memoria result cites lines; skip anything that does not
    const citation = formatCitation(c);
    const body = r.content.replace(/\s+$/, "");
    const hit: SearchHit = {
      path: c.path,
      startLine: c.startLine,
      endLine: c.endLine,
      score: r.score,
      snippet: withCitations ? `${body}\n\nSource: ${citation}` : body,
      source: "memory",
      corpus: "memory",
      citation: withCitations ? citation : undefined,
    };
    if (r.kind) hit.kind = r.kind;
    if (r.timestamp) hit.timestamp = r.timestamp;
    if (r.event_time) hit.eventTime = r.event_time;
    if (r.entities && r.entities.length > 0) hit.entities = r.entities;
    if (typeof r.confidence === "number") hit.confidence = r.confidence;
    if (r.superseded_by && r.superseded_by.length > 0) hit.supersededBy = r.superseded_by.map((l) => l.source);
    if (r.observed) hit.observed = r.observed;
    if (r.status) hit.status = r.status;
    if (r.imported_from) hit.importedFrom = r.imported_from;
    if (r.machine_summary) hit.machineSummary = true;
    hits.push(hit);
  }
  return hits;
}

/** What a hit of OpenClaw's own files is, as memoria recall's text says it: "observed 2026-07-27", "superseded", "imported from codex", "machine summary". */
export function originOf(h: SearchHit): string[] {
  const out: string[] = [];
  if (h.observed) out.push(`observed ${h.observed}`);
  if (h.status) out.push(h.status);
  if (h.importedFrom) out.push(`imported from ${h.importedFrom}`);
  if (h.machineSummary) out.push("machine summary");
  return out;
}

/** Default lines and characters of a memory_get excerpt, as OpenClaw's memory_get uses. */
export const DEFAULT_READ_LINES = 120;
export const DEFAULT_READ_MAX_CHARS = 12_000;

export type ReadResult = {
  status: "ok";
  path: string;
  text: string;
  from: number;
  lines: number;
  truncated?: true;
  nextFrom?: number;
};

/**
 * Cut the excerpt [from, from+lines) out of a whole file's text, within a
 * character budget, and say where to continue, like OpenClaw's memory_get.
 */
export function sliceFile(
  path: string,
  content: string,
  from = 1,
  lines = DEFAULT_READ_LINES,
  maxChars = DEFAULT_READ_MAX_CHARS,
): ReadResult {
  const all = content.split("\n");
  if (all.at(-1) === "") all.pop();
  const start = Math.max(1, Math.floor(from));
  const selected = all.slice(start - 1, start - 1 + Math.max(1, Math.floor(lines)));
  let included = 0;
  let chars = 0;
  for (const line of selected) {
    const next = chars + line.length + (included > 0 ? 1 : 0);
    if (included > 0 && next > maxChars) break;
    included++;
    chars = next;
  }
  let text = selected.slice(0, included).join("\n");
  const hardCut = text.length > maxChars;
  if (hardCut) text = text.slice(0, maxChars);
  const moreInFile = start - 1 + selected.length < all.length;
  const truncated = hardCut || included < selected.length || moreInFile;
  const out: ReadResult = { status: "ok", path, text, from: start, lines: included };
  if (truncated) {
    out.truncated = true;
    if (!hardCut) {
      out.nextFrom = start + included;
      out.text += `\n\n[More content available. Use from=${out.nextFrom} to continue.]`;
    } else {
      out.text += "\n\n[More content available. The line is longer than the excerpt budget.]";
    }
  }
  return out;
}
