// The optional turn hooks (autoRecall, autoRetain) and the memory slot's
// prompt section, against a real memoria. A turn needs a model, which an
// offline test does not have, so this registers the compiled plugin with a
// minimal host that records what it registers and calls the hooks as
// OpenClaw does before and after a turn. openclaw_test.go runs it with
// MEMORIA_BIN (the memoria binary) and MEMORIA_TEST_WORKSPACE (a copy of
// examples/workspace).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

import plugin, { factsToRetain } from "../dist/index.js";

const bin = process.env.MEMORIA_BIN;
const ws = process.env.MEMORIA_TEST_WORKSPACE;

function host(pluginConfig, plugins) {
  const h = { tools: new Map(), hooks: new Map(), services: [], cli: [], capability: null, warnings: [] };
  const api = {
    id: "memoria",
    name: "Memoria",
    source: "test",
    registrationMode: "full",
    config: { agents: { defaults: { workspace: ws } }, plugins },
    pluginConfig,
    logger: { info() {}, debug() {}, warn: (m) => h.warnings.push(m), error: (m) => h.warnings.push(m) },
    registerTool: (factory, opts) => h.tools.set(opts.names[0], factory),
    registerMemoryCapability: (c) => (h.capability = c),
    registerCli: (r, opts) => h.cli.push(opts),
    registerService: (s) => h.services.push(s),
    on: (name, handler) => h.hooks.set(name, handler),
  };
  plugin.register(api);
  h.stop = async () => {
    for (const s of h.services) await s.stop?.();
  };
  return h;
}

test("hooks are off by default", { skip: !bin || !ws }, async () => {
  const h = host({ binary: bin });
  assert.deepEqual([...h.tools.keys()].sort(), ["memory_get", "memory_reflect", "memory_retain", "memory_search"]);
  assert.ok(!h.hooks.has("before_prompt_build"));
  assert.ok(!h.hooks.has("agent_end"));
  assert.ok(h.hooks.has("gateway_stop"));
  assert.deepEqual(h.cli.map((c) => c.descriptors[0].name), ["memoria"]);
  const section = h.capability.promptBuilder({ availableTools: new Set(["memory_search", "memory_get", "memory_retain"]), citationsMode: "auto" });
  assert.equal(section[0], "## Memory Recall");
  assert.match(section.join("\n"), /memory_search/);
  assert.match(section.join("\n"), /memory_retain/);
  assert.deepEqual(h.capability.promptBuilder({ availableTools: new Set(["read"]) }), []);
  await h.stop();
  // With memory-core disabled, `openclaw memory …` is Memoria's too.
  const h2 = host({ binary: bin }, { entries: { "memory-core": { enabled: false } } });
  assert.deepEqual(h2.cli.map((c) => c.descriptors[0].name), ["memory", "memoria"]);
  await h2.stop();
});

test("autoRecall puts recalled memory with citations before the turn", { skip: !bin || !ws }, async () => {
  const h = host({ binary: bin, autoRecall: true, autoRecallBudget: 1500 });
  const before = h.hooks.get("before_prompt_build");
  assert.ok(before);
  const res = await before({ prompt: "What does Peter prefer on WhatsApp?", messages: [] }, { agentId: "main" });
  assert.ok(res?.prependContext, "no context");
  assert.match(res.prependContext, /^<memoria-memory>/);
  assert.match(res.prependContext, /WhatsApp/);
  // Every citation in it names real lines of the workspace.
  const cites = [...res.prependContext.matchAll(/([\w./-]+\.md)#L(\d+)(?:-L(\d+))?/g)];
  assert.ok(cites.length > 0, `no citation in:\n${res.prependContext}`);
  for (const [, file, a, b] of cites) {
    const lines = fs.readFileSync(path.join(ws, file), "utf8").split("\n");
    assert.ok(Number(b ?? a) <= lines.length, `${file}#L${a}-L${b} is past the end of the file`);
  }
  assert.equal(await before({ prompt: "  ", messages: [] }, { agentId: "main" }), undefined);
  await h.stop();
});

test("autoRetain keeps what the user asked to remember, and nothing else", { skip: !bin || !ws }, async () => {
  const h = host({ binary: bin, autoRetain: true });
  const end = h.hooks.get("agent_end");
  assert.ok(end);
  const logs = () =>
    fs
      .readdirSync(path.join(ws, "memory"))
      .map((f) => fs.readFileSync(path.join(ws, "memory", f), "utf8"))
      .join("\n");
  await end({ success: true, messages: [{ role: "user", content: "How is the weather in Vienna?" }, { role: "assistant", content: "Sunny." }] }, { agentId: "main" });
  assert.doesNotMatch(logs(), /The user asked me to remember/);
  await end(
    {
      success: true,
      messages: [
        { role: "user", content: [{ type: "text", text: "Please remember that Mira's piano recital is on 2026-03-14" }] },
        { role: "assistant", content: "Noted." },
      ],
    },
    { agentId: "main" },
  );
  assert.match(logs(), /- S The user asked me to remember: Please remember that Mira's piano recital is on 2026-03-14\./);
  await end({ success: false, messages: [{ role: "user", content: "remember that this failed turn is not kept" }] }, { agentId: "main" });
  assert.doesNotMatch(logs(), /failed turn is not kept/);
  assert.deepEqual(h.warnings, []);
  await h.stop();
});

test("factsToRetain", () => {
  assert.deepEqual(factsToRetain([{ role: "user", content: "hello" }]), []);
  assert.deepEqual(factsToRetain([{ role: "user", content: "Don't forget: Biscuit's vet is on Friday!" }]), [
    "S The user asked me to remember: Don't forget: Biscuit's vet is on Friday!",
  ]);
  const long = "remember " + "x".repeat(800);
  assert.ok(factsToRetain([{ role: "user", content: long }])[0].length < 560);
  assert.deepEqual(factsToRetain([{ role: "user", content: "<memoria-memory>remember me</memoria-memory> thanks" }]), []);
});

test("a memoria that cannot run makes memory_search unavailable, not a crash", { skip: !ws }, async () => {
  const h = host({ binary: path.join(ws, "no-such-memoria") });
  const tool = h.tools.get("memory_search")({ agentId: "main", workspaceDir: ws });
  const res = await tool.execute("call-1", { query: "Peter" });
  assert.equal(res.details.unavailable, true);
  assert.deepEqual(res.details.results, []);
  assert.match(res.details.error, /could not run/);
  const get = h.tools.get("memory_get")({ agentId: "main", workspaceDir: ws });
  const got = await get.execute("call-2", { path: "memory.md" });
  assert.equal(got.details.status, "error");
  await h.stop();
});
