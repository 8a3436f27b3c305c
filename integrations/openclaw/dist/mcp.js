// A client for one long-lived `memoria serve` process: MCP over stdio, that
// is newline-delimited JSON-RPC 2.0 on the child's stdin and stdout.
//
// The process is started on the first call, kept for every later call,
// started again on the next call if it dies, and closed by close().
import { spawn } from "node:child_process";
/** The MCP protocol version this client asks for. */
export const PROTOCOL_VERSION = "2025-06-18";
/** A tool call failed as a tool (isError), as opposed to a transport failure. */
export class MemoriaToolError extends Error {
    tool;
    constructor(message, tool) {
        super(message);
        this.tool = tool;
        this.name = "MemoriaToolError";
    }
}
/** A JSON-RPC error reply, or the process died or did not answer. */
export class MemoriaUnavailableError extends Error {
    exited;
    constructor(message, 
    /** The process ended while the call was in flight (a retry may succeed). */
    exited = false) {
        super(message);
        this.exited = exited;
        this.name = "MemoriaUnavailableError";
    }
}
export class MemoriaServe {
    opts;
    session = null;
    nextId = 1;
    closed = false;
    /** How many processes this client has started; a restart adds one. */
    starts = 0;
    constructor(opts) {
        this.opts = opts;
    }
    /** The pid of the running process, if any. */
    get pid() {
        const s = this.session;
        return s && !s.exited ? s.child.pid : undefined;
    }
    /** Call one Memoria tool; a tool error rejects with MemoriaToolError. */
    async callTool(name, args) {
        const raw = (await this.request("tools/call", { name, arguments: args }));
        const text = (raw.content ?? [])
            .filter((c) => c.type === "text" && typeof c.text === "string")
            .map((c) => c.text)
            .join("\n");
        if (raw.isError) {
            throw new MemoriaToolError(text || `memoria ${name} failed`, name);
        }
        return { text, structured: raw.structuredContent, isError: false };
    }
    /** Stop the process: close its stdin (it exits at end of input), then signal it if it lingers. */
    async close() {
        this.closed = true;
        const s = this.session;
        this.session = null;
        if (!s || s.exited)
            return;
        const done = new Promise((resolve) => s.child.once("exit", () => resolve()));
        s.child.stdin.end();
        const term = setTimeout(() => s.child.kill("SIGTERM"), 2000);
        const kill = setTimeout(() => s.child.kill("SIGKILL"), 5000);
        await done;
        clearTimeout(term);
        clearTimeout(kill);
    }
    async request(method, params) {
        try {
            return await this.requestOnce(method, params);
        }
        catch (e) {
            // The process died under this call (killed, crashed): start a new one
            // and try once more. Memoria's writes are idempotent (retain skips a
            // fact already in the log), so a repeated call is safe.
            if (e instanceof MemoriaUnavailableError && e.exited && !this.closed) {
                return await this.requestOnce(method, params);
            }
            throw e;
        }
    }
    async requestOnce(method, params) {
        if (this.closed)
            throw new MemoriaUnavailableError("memoria: the client is closed");
        const s = this.ensure();
        await s.ready;
        return await this.send(s, method, params);
    }
    ensure() {
        if (this.session && !this.session.exited)
            return this.session;
        const args = ["serve", "--workspace", this.opts.workspace];
        if (this.opts.watch)
            args.push("--watch");
        const child = spawn(this.opts.binary, args, {
            stdio: ["pipe", "pipe", "pipe"],
            env: process.env,
            windowsHide: true,
        });
        this.starts++;
        const s = { child, ready: Promise.resolve(), pending: new Map(), stderr: [], exited: false };
        this.session = s;
        let buf = "";
        child.stdout.setEncoding("utf8");
        child.stdout.on("data", (chunk) => {
            buf += chunk;
            let nl;
            while ((nl = buf.indexOf("\n")) >= 0) {
                const line = buf.slice(0, nl).trim();
                buf = buf.slice(nl + 1);
                if (line)
                    this.onLine(s, line);
            }
        });
        child.stderr.setEncoding("utf8");
        child.stderr.on("data", (chunk) => {
            for (const line of chunk.split("\n")) {
                if (!line.trim())
                    continue;
                s.stderr.push(line);
                if (s.stderr.length > 20)
                    s.stderr.shift();
                this.opts.logger?.debug?.(`memoria: ${line}`);
            }
        });
        const fail = (why) => {
            if (s.exited)
                return;
            s.exited = true;
            if (this.session === s)
                this.session = null;
            const tail = s.stderr.slice(-3).join("; ");
            const err = new MemoriaUnavailableError(`memoria serve ${why}${tail ? `: ${tail}` : ""}`, true);
            for (const p of s.pending.values()) {
                clearTimeout(p.timer);
                p.reject(err);
            }
            s.pending.clear();
            if (!this.closed)
                this.opts.logger?.warn?.(`${err.message} (restarted on the next call)`);
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
    send(s, method, params) {
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
    write(s, msg) {
        if (s.exited || !s.child.stdin.writable)
            return;
        s.child.stdin.write(`${JSON.stringify(msg)}\n`);
    }
    onLine(s, line) {
        let msg;
        try {
            msg = JSON.parse(line);
        }
        catch {
            this.opts.logger?.debug?.(`memoria: not JSON on stdout: ${line.slice(0, 200)}`);
            return;
        }
        if (typeof msg.id !== "number")
            return; // a notification (logging, list changes)
        const p = s.pending.get(msg.id);
        if (!p)
            return;
        s.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.error) {
            p.reject(new MemoriaUnavailableError(`memoria: ${msg.error.message ?? "error"} (${msg.error.code ?? "?"})`));
        }
        else {
            p.resolve(msg.result);
        }
    }
}
/** One MemoriaServe per workspace, so agents with separate workspaces keep separate memories. */
export class MemoriaPool {
    base;
    clients = new Map();
    constructor(base) {
        this.base = base;
    }
    get(workspace) {
        let c = this.clients.get(workspace);
        if (!c) {
            c = new MemoriaServe({ ...this.base, workspace });
            this.clients.set(workspace, c);
        }
        return c;
    }
    async closeAll() {
        const all = [...this.clients.values()];
        this.clients.clear();
        await Promise.allSettled(all.map((c) => c.close()));
    }
}
