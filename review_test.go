package memoria

import (
	"reflect"
	"testing"
)

// TestParseCoreProposals reads the lines reflect writes into
// review/core-proposals.md, in each state, and leaves other lines alone.
func TestParseCoreProposals(t *testing.T) {
	data := []byte("# Core memory proposals\n\nProse with [p_0123456789] in it.\n" +
		"- [ ] Facts: @Peter: drinks oat-milk flat whites — on 3 days, latest 2025-11-03 (memory/2025-11-03.md#L5, memory/2025-11-02.md#L5) [p_f3d10af468]\n" +
		"- [x] Preferences: @Clara-Mendes: prefers written reviews — on 4 days, latest 2025-11-05 (memory/2025-11-05.md#L4-L5) [p_aaaaaaaaaa]\r\n" +
		"- [-] Facts: uses pnpm — on 3 days, latest 2025-11-01 (memory/2025-11-01.md#L2) [p_bbbbbbbbbb]\n" +
		"- [ ] Stale: memory.md#L4 says \"Lives in Rotterdam\"; since 2026-02-02, memory/2026-02-02.md#L4 says: moved to Utrecht [s_cccccccccc]\n" +
		"- [ ] Facts: no key at the end\n")
	got := parseCoreProposals(data)
	want := []CoreProposal{
		{ID: "p_f3d10af468", Block: "Facts", Text: "- Peter: drinks oat-milk flat whites", State: "open", Line: 4,
			Proposal: "@Peter: drinks oat-milk flat whites — on 3 days, latest 2025-11-03 (memory/2025-11-03.md#L5, memory/2025-11-02.md#L5)",
			Sources:  []string{"memory/2025-11-03.md#L5", "memory/2025-11-02.md#L5"}},
		{ID: "p_aaaaaaaaaa", Block: "Preferences", Text: "- Clara Mendes: prefers written reviews", State: "accepted", Line: 5,
			Proposal: "@Clara-Mendes: prefers written reviews — on 4 days, latest 2025-11-05 (memory/2025-11-05.md#L4-L5)",
			Sources:  []string{"memory/2025-11-05.md#L4-L5"}},
		{ID: "p_bbbbbbbbbb", Block: "Facts", Text: "- uses pnpm", State: "rejected", Line: 6,
			Proposal: "uses pnpm — on 3 days, latest 2025-11-01 (memory/2025-11-01.md#L2)",
			Sources:  []string{"memory/2025-11-01.md#L2"}},
		{ID: "s_cccccccccc", Block: "Stale", State: "open", Line: 7,
			Proposal: "memory.md#L4 says \"Lives in Rotterdam\"; since 2026-02-02, memory/2026-02-02.md#L4 says: moved to Utrecht",
			Sources:  []string{"memory.md#L4", "memory/2026-02-02.md#L4"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseCoreProposals:\n got %+v\nwant %+v", got, want)
	}
	if got := string(replaceOnLine([]byte("a [ ]\nb [ ] [ ]\r\nc"), 2, "[ ]", "[x]")); got != "a [ ]\nb [x] [ ]\r\nc" {
		t.Errorf("replaceOnLine: %q", got)
	}
}
