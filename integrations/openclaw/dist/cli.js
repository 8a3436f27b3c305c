// `openclaw memory …`: recall, get, retain, reflect, forget and status
// through the same memoria serve the tools use.
import { originOf } from "./results.js";
function print(s) {
    process.stdout.write(s.endsWith("\n") ? s : `${s}\n`);
}
function collect(v, prev = []) {
    return [...prev, v];
}
async function run(deps, fn) {
    try {
        await fn();
    }
    catch (e) {
        process.stderr.write(`memoria: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 1;
    }
    finally {
        await deps.pool.closeAll();
    }
}
function renderHits(hits) {
    if (hits.length === 0)
        return "No memory matched.";
    return hits
        .map((h, i) => {
        const cite = h.startLine === h.endLine ? `${h.path}#L${h.startLine}` : `${h.path}#L${h.startLine}-L${h.endLine}`;
        const meta = [h.kind, h.timestamp, typeof h.confidence === "number" ? `c=${h.confidence}` : "", ...originOf(h), (h.entities ?? []).map((e) => `@${e}`).join(" ")]
            .filter(Boolean)
            .join(", ");
        const body = h.snippet.replace(/\n\nSource: .*$/s, "");
        return `[${i + 1}] ${cite}  score ${h.score.toFixed(3)}${meta ? `  (${meta})` : ""}\n${body}`;
    })
        .join("\n\n");
}
/** Register `openclaw <root> recall|get|retain|reflect|forget|status` (root: memory or memoria). */
export function registerMemoryCli(program, deps, root = "memory") {
    const memory = program.command(root).description("Recall, read and reflect long-term memory (Memoria)");
    memory
        .command("recall <query...>")
        .description("Search memory; results cite path#Lx-Ly")
        .option("--k <n>", "how many results at most", String(deps.defaultK))
        .option("--since <when>", "hard lower time bound: 30d, 2w, YYYY-MM-DD, last week")
        .option("--until <when>", "hard upper time bound")
        .option("--kind <kind>", "only this kind (world, experience, opinion, observation, passage); repeatable", collect)
        .option("--entity <name>", "only memory about this entity; repeatable", collect)
        .option("--agent <id>", "the agent whose workspace to search (default: the default agent)")
        .option("--json", "print JSON (the memory_search result)")
        .action(async (query, opts) => {
        await run(deps, async () => {
            const k = Number(opts.k ?? deps.defaultK);
            if (!Number.isInteger(k) || k < 1)
                throw new Error(`--k must be a positive integer, not ${opts.k}`);
            const params = { query: query.join(" "), maxResults: k };
            if (opts.since)
                params.since = opts.since;
            if (opts.until)
                params.until = opts.until;
            if (opts.kind?.length)
                params.kind = opts.kind;
            if (opts.entity?.length)
                params.entity = opts.entity;
            const out = await deps.search(deps.workspaceFor(opts.agent), params);
            if (opts.json)
                print(JSON.stringify(out, null, 2));
            else
                print(renderHits(out.results ?? []));
        });
    });
    memory
        .command("get <source>")
        .description("Print the cited lines (path#Lx-Ly) or a whole memory file")
        .option("--agent <id>", "the agent whose workspace to read")
        .option("--json", "print JSON")
        .action(async (source, opts) => {
        await run(deps, async () => {
            const res = await deps.pool.get(deps.workspaceFor(opts.agent)).callTool("get", { source });
            print(opts.json ? JSON.stringify(res.structured, null, 2) : res.text);
        });
    });
    memory
        .command("retain <facts...>")
        .description("Remember facts: 'W @Entity: fact.', 'B I did.', 'O(c=0.8) @Entity: opinion.', 'S summary.'")
        .option("--date <day>", "the daily log to write, YYYY-MM-DD (default today)")
        .option("--agent <id>", "the agent whose workspace to write")
        .option("--json", "print JSON")
        .action(async (facts, opts) => {
        await run(deps, async () => {
            const args = { facts };
            if (opts.date)
                args.date = opts.date;
            const res = await deps.pool.get(deps.workspaceFor(opts.agent)).callTool("retain", args);
            print(opts.json ? JSON.stringify(res.structured, null, 2) : res.text);
        });
    });
    memory
        .command("reflect")
        .description("Update entity pages, opinion confidence and core proposals from the daily logs")
        .option("--since <when>", "only facts written since then count as new evidence: 7d, 2w, YYYY-MM-DD")
        .option("--dry-run", "print the diff, write nothing")
        .option("--agent <id>", "the agent whose workspace to reflect")
        .option("--json", "print JSON")
        .action(async (opts) => {
        await run(deps, async () => {
            const args = {};
            if (opts.since)
                args.since = opts.since;
            if (opts.dryRun)
                args.dry_run = true;
            const res = await deps.pool.get(deps.workspaceFor(opts.agent)).callTool("reflect", args);
            print(opts.json ? JSON.stringify(res.structured, null, 2) : res.text);
        });
    });
    memory
        .command("forget [sources...]")
        .description("Forget lines for good: by citation (path#Lx-Ly), --entity or --query; --dry-run shows them first")
        .option("--entity <name>", "forget every line that names this entity; repeatable", collect)
        .option("--query <text>", "forget the lines of the results of recalling this")
        .option("--k <n>", "with --query: how many results", "5")
        .option("--reason <text>", "why, kept in the tombstone and the record")
        .option("--no-trace", "leave no tombstone where the lines were (the record is kept)")
        .option("--dry-run", "show which lines of which files would go, and change nothing")
        .option("--agent <id>", "the agent whose workspace to change")
        .option("--json", "print JSON (the report)")
        .action(async (sources, opts) => {
        await run(deps, async () => {
            const k = Number(opts.k ?? 5);
            if (!Number.isInteger(k) || k < 1)
                throw new Error(`--k must be a positive integer, not ${opts.k}`);
            const args = {};
            if (sources.length)
                args.sources = sources;
            if (opts.entity?.length)
                args.entity = opts.entity;
            if (opts.query) {
                args.query = opts.query;
                args.k = k;
            }
            if (!sources.length && !opts.entity?.length && !opts.query) {
                throw new Error("say what to forget: citations (memory/2025-11-27.md#L3-L4), --entity NAME or --query TEXT; try --dry-run first");
            }
            if (opts.reason)
                args.reason = opts.reason;
            if (opts.trace === false)
                args.no_trace = true;
            if (opts.dryRun)
                args.dry_run = true;
            const res = await deps.pool.get(deps.workspaceFor(opts.agent)).callTool("forget", args);
            print(opts.json ? JSON.stringify(res.structured, null, 2) : res.text);
        });
    });
    memory
        .command("status")
        .description("What memory holds and whether the index is fresh")
        .option("--agent <id>", "the agent whose workspace to inspect")
        .option("--json", "print JSON")
        .action(async (opts) => {
        await run(deps, async () => {
            const res = await deps.pool.get(deps.workspaceFor(opts.agent)).callTool("status", {});
            print(opts.json ? JSON.stringify(res.structured, null, 2) : res.text);
        });
    });
}
