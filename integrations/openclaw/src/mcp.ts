// A client for one long-lived `memoria serve` process: MCP over stdio, that
// is newline-delimited JSON-RPC 2.0 on the child's stdin and stdout.
//
// The process is started on the first call, kept for every later call,
// started again on the next call if it dies, and closed by close().

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

/** The MCP protocol version this client asks for. */
export const PROTOCOL_VERSION = "2025-06-18";

export type Logger = {
  info?: (msg: string) => void;
  warn?: (msg: string) => void;
  debug?: (msg: string) => void;
};

export type ServeOptions = {
  /** The memoria binary: a path, or a name looked up on PATH. */
  binary: string;
  /** The workspace memoria serves (the OpenClaw agent workspace). */
  workspace: string;
  /** Pass --watch, so the index follows edits as they happen. */
  watch?: boolean;
  /** Milliseconds one tool call may take before it fails. */
  timeoutMs?: number;
  logger?: Logger;
};

/** What a tool call returned: its text, its structured content, and whether it is a tool error. */
export type ToolResult = {
  text: string;
  structured: unknown;
  isError: boolean;
};

type Pending = {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
};

type Session = {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  stderr: string[];
  exited: boolean;
};

/** A tool call failed as a tool (isError), as opposed to a transport failure. */
export class MemoriaToolError extends Error {
  constructor(
    message: string,
    readonly tool: string,
  ) {
    super(message);
    this.name = "MemoriaToolError";
  }
}

/** A JSON-RPC error reply, or the process died or did not answer. */
export class MemoriaUnavailableError extends Error {
  constructor(
    message: string,
    /** The process ended while the call was in flight (a retry may succeed). */
    readonly exited = false,
  ) {
    super(message);
    this.name = "MemoriaUnavailableError";
  }
}

export class MemoriaServe {
  private session: Session | null = null;
  private nextId = 1;
  private closed = false;
  /** How many processes this client has started; a restart adds one. */
  starts = 0;

  constructor(readonly opts: ServeOptions) {}

  /** The pid of the running process, if any. */
  get pid(): number | undefined {
    const s = this.session;
    return s && !s.exited ? s.child.pid : undefined;
  }

  /** Call one Memoria tool; a tool error rejects with MemoriaToolError. */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const raw = (await this.request("tools/call", { name, arguments: args })) as {
      content?: Array<{ type?: string; text?: string }>;
      structuredContent?: unknown;
      isError?: boolean;
    };
    const text = (raw.content ?? [])
      .filter((c) => c.type === "text" && typeof c.text === "string")
      .map((c) => c.text as string)
      .join("\n");
    if (raw.isError) {
      throw new MemoriaToolError(text || `memoria ${name} failed`, name);
    }
    return { text, structured: raw.structuredContent, isError: false };
  }

  /** Stop the process: close its stdin (it exits at end of input), then signal it if it lingers. */
  async close(): Promise<void> {
    this.closed = true;
    const s = this.session;
    this.session = null;
    if (!s || s.exited) return;
    const done = new Promise<void>((resolve) => s.child.once("exit", () => resolve()));
    s.child.stdin.end();
    const term = setTimeout(() => s.child.kill("SIGTERM"), 2000);
    const kill = setTimeout(() => s.child.kill("SIGKILL"), 5000);
    await done;
    clearTimeout(term);
    clearTimeout(kill);
  }

  private async request(method: string, params: unknown): Promise<unknown> {
    try {
      return await this.requestOnce(method, params);
    } catch (e) {
      // The process died under this call (killed, crashed): start a new one
      // and try once more. Memoria's writes are idempotent (retain skips a
      // fact already in the log), so a repeated call is safe.
      if (e instanceof MemoriaUnavailableError && e.exited && !this.closed) {
        return await this.requestOnce(method, params);
      }
      throw e;
    }
  }

  private async requestOnce(method: string, params: unknown): Promise<unknown> {
    if (this.closed) throw new MemoriaUnavailableError("memoria: the client is closed");
    const s = this.ensure();
    await s.ready;
    return await this.send(s, method, params);
  }

  private ensure(): Session {
    if (this.session && !this.session.exited) return this.session;
    const args = ["serve", "--workspace", this.opts.workspace];
    if (this.opts.watch) args.push("--watch");
    const child = spawn(this.opts.binary, args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: process.env,
      windowsHide: true,
    });
    this.starts++;
    const s: Session = { child, ready: Promise.resolve(), pending: new Map(), stderr: [], exited: false };
    this.session = s;
    let buf = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) this.onLine(s, line);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) {
        if (!line.trim()) continue;
        s.stderr.push(line);
        if (s.stderr.length > 20) s.stderr.shift();
        this.opts.logger?.debug?.(`memoria: ${line}`);
      }
    });
    const fail = (why: string) => {
      if (s.exited) return;
      s.exited = true;
      if (this.session === s) this.session = null;
      const tail = s.stderr.slice(-3).join("; ");
      const err = new MemoriaUnavailableError(`memoria serve ${why}${tail ? `: ${tail}` : ""}`, true);
      for (const p of s.pending.values()) {
        clearTimeout(p.timer);
        p.reject(err);
      }
      s.pending.clear();
      if (!this.closed) this.opts.logger?.warn?.(`${err.message} (restarted on the next call)`);
    };
    child.on("error", (e) => fail(`could not run ${this.opts.binary}: ${e.message}`));
    child.on("exit", (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
    child.stdin.on("error", () => {
      /* a write after the child died; the exit handler reports it */
    });
    s.ready = (async () => {
      await this.send(s, "initialize", {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "memoria-openclaw", version: "0.1.0" },
      });
      this.write(s, { jsonrpc: "2.0", method: "notifications/initialized" });
    })();
    s.ready.catch(() => {
      /* surfaced to the caller that awaits it */
    });
    return s;
  }

  private send(s: Session, method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    return new Promise((resolve, reject) => {
      if (s.exited) {
        reject(new MemoriaUnavailableError("memoria serve is not running", true));
        return;
      }
      const timer = setTimeout(() => {
        s.pending.delete(id);
        reject(new MemoriaUnavailableError(`memoria ${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      s.pending.set(id, { resolve, reject, timer });
      this.write(s, { jsonrpc: "2.0", id, method, params });
    });
  }

  private write(s: Session, msg: unknown): void {
    if (s.exited || !s.child.stdin.writable) return;
    s.child.stdin.write(`${JSON.stringify(msg)}\n`);
  }

  private onLine(s: Session, line: string): void {
    let msg: { id?: unknown; result?: unknown; error?: { message?: string; code?: number }; method?: string };
    try {
      msg = JSON.parse(line);
    } catch {
      this.opts.logger?.debug?.(`memoria: not JSON on stdout: ${line.slice(0, 200)}`);
      return;
    }
    if (typeof msg.id !== "number") return; // a notification (logging, list changes)
    const p = s.pending.get(msg.id);
    if (!p) return;
    s.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error) {
      p.reject(new MemoriaUnavailableError(`memoria: ${msg.error.message ?? "error"} (${msg.error.code ?? "?"})`));
    } else {
      p.resolve(msg.result);
    }
  }
}

/** One MemoriaServe per workspace, so agents with separate workspaces keep separate memories. */
export class MemoriaPool {
  private readonly clients = new Map<string, MemoriaServe>();

  constructor(private readonly base: Omit<ServeOptions, "workspace">) {}

  get(workspace: string): MemoriaServe {
    let c = this.clients.get(workspace);
    if (!c) {
      c = new MemoriaServe({ ...this.base, workspace });
      this.clients.set(workspace, c);
    }
    return c;
  }

  async closeAll(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(all.map((c) => c.close()));
  }
}
