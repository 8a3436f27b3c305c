// The plugin's configuration (plugins.entries.memoria.config) and the
// workspace it serves.

import os from "node:os";
import path from "node:path";

export type MemoriaPluginConfig = {
  /** The memoria binary: a path, or a name on PATH. */
  binary: string;
  /** Run `memoria serve --watch`, so edits are indexed as they happen. */
  watch: boolean;
  /** How long one call to memoria may take. */
  timeoutMs: number;
  /** memory_search results when the agent does not say (maxResults). */
  maxResults: number;
  /** Recall into the context before each turn. */
  autoRecall: boolean;
  /** Token budget of that context. */
  autoRecallBudget: number;
  /** Retain what the user asked to be remembered after each turn. */
  autoRetain: boolean;
};

export const DEFAULTS: MemoriaPluginConfig = {
  binary: "memoria",
  watch: false,
  timeoutMs: 30_000,
  maxResults: 10,
  autoRecall: false,
  autoRecallBudget: 1000,
  autoRetain: false,
};

function bool(v: unknown, d: boolean): boolean {
  return typeof v === "boolean" ? v : d;
}

function int(v: unknown, d: number, min: number): number {
  return typeof v === "number" && Number.isFinite(v) && v >= min ? Math.floor(v) : d;
}

export function readConfig(raw: Record<string, unknown> | undefined): MemoriaPluginConfig {
  const c = raw ?? {};
  const binary = typeof c.binary === "string" && c.binary.trim() ? expandHome(c.binary.trim()) : DEFAULTS.binary;
  return {
    binary,
    watch: bool(c.watch, DEFAULTS.watch),
    timeoutMs: int(c.timeoutMs, DEFAULTS.timeoutMs, 1000),
    maxResults: int(c.maxResults, DEFAULTS.maxResults, 1),
    autoRecall: bool(c.autoRecall, DEFAULTS.autoRecall),
    autoRecallBudget: int(c.autoRecallBudget, DEFAULTS.autoRecallBudget, 100),
    autoRetain: bool(c.autoRetain, DEFAULTS.autoRetain),
  };
}

/** The home directory OpenClaw uses: $OPENCLAW_HOME, else the user's. */
export function openclawHome(): string {
  const h = process.env.OPENCLAW_HOME?.trim();
  if (h && h !== "undefined" && h !== "null") return h;
  return os.homedir();
}

export function expandHome(p: string): string {
  if (p === "~") return openclawHome();
  if (p.startsWith("~/")) return path.join(openclawHome(), p.slice(2));
  return p;
}

type AgentEntry = { id?: string; default?: boolean; workspace?: string };
type ConfigLike = {
  agents?: { defaults?: { workspace?: string }; list?: AgentEntry[] };
};

/** The default agent's id: the one marked default, else the first listed, else "main". */
export function defaultAgentId(cfg: unknown): string {
  const list = (cfg as ConfigLike | undefined)?.agents?.list ?? [];
  return list.find((a) => a.default)?.id ?? list[0]?.id ?? "main";
}

/**
 * The agent's workspace when OpenClaw's own resolver is not at hand: its
 * agents.list entry, then agents.defaults.workspace, then ~/.openclaw/workspace.
 */
export function fallbackWorkspace(cfg: unknown, agentId: string): string {
  const c = cfg as ConfigLike | undefined;
  const own = c?.agents?.list?.find((a) => a.id === agentId)?.workspace;
  const ws = own ?? c?.agents?.defaults?.workspace;
  if (ws && ws.trim()) return path.resolve(expandHome(ws.trim()));
  const state = process.env.OPENCLAW_STATE_DIR?.trim();
  return path.join(state ? expandHome(state) : path.join(openclawHome(), ".openclaw"), "workspace");
}
