package memoria

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"memoria/memory"
	"memoria/reflect"
	"memoria/retain"
	"memoria/safewrite"
)

// ErrNoProposal is wrapped by the errors of the proposal methods for an
// ID that no proposal of the review file has (any more).
var ErrNoProposal = errors.New("no such proposal")

// CoreProposalsFile is where reflect proposes lines for core memory,
// workspace-relative (not indexed).
const CoreProposalsFile = reflect.ProposalsPath

// RetainProposal is one inferred fact waiting in the review file.
type RetainProposal struct {
	ID     string `json:"id"`     // stable while the fact and its source are unchanged
	Fact   string `json:"fact"`   // the fact, in the Retain grammar
	Source string `json:"source"` // the log lines it was inferred from
	Ticked bool   `json:"ticked"` // ticked [x]: the next accept moves it
	Line   int    `json:"line"`   // its line in the review file
}

// RetainProposals lists the proposals of the review file (ReviewFile
// when review is ""), in file order; none when there is no review file.
func (w *Workspace) RetainProposals(review string) ([]RetainProposal, error) {
	if review == "" {
		review = ReviewFile
	}
	if err := checkReviewPath(review); err != nil {
		return nil, err
	}
	data, _, err := safewrite.Snapshot(w.dir, review)
	if err != nil {
		return nil, err
	}
	out := []RetainProposal{}
	for _, p := range retain.ParseReview(data) {
		out = append(out, RetainProposal{ID: retainProposalID(p), Fact: p.Fact, Source: p.Source.String(), Ticked: p.Ticked, Line: p.Line})
	}
	return out, nil
}

func retainProposalID(p retain.Proposal) string {
	sum := sha256.Sum256([]byte(p.Fact + "\x00" + p.Source.String()))
	return "r_" + hex.EncodeToString(sum[:6])
}

// AcceptRetainProposal ticks the proposal with this ID in the review file
// and then accepts as AcceptProposals does: the proposal, and any other a
// person ticked meanwhile, move into the Retain sections of their logs.
func (w *Workspace) AcceptRetainProposal(ctx context.Context, id string, o AcceptOptions) (AcceptResult, error) {
	review := o.Review
	if review == "" {
		review = ReviewFile
	}
	if err := checkReviewPath(review); err != nil {
		return AcceptResult{Review: review}, err
	}
	err := safewrite.UpdateWith(w.dir, review, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria page: accept"},
		func(old []byte) ([]byte, error) {
			line, err := findRetainProposal(old, review, id)
			if err != nil {
				return nil, err
			}
			return replaceOnLine(old, line, "[ ]", "[x]"), nil
		})
	if err != nil {
		return AcceptResult{Review: review}, err
	}
	return w.AcceptProposals(ctx, o)
}

// RejectRetainProposal removes the proposal with this ID from the review
// file (as a person deleting its line), under the workspace write lock.
func (w *Workspace) RejectRetainProposal(id string, o AcceptOptions) error {
	review := o.Review
	if review == "" {
		review = ReviewFile
	}
	if err := checkReviewPath(review); err != nil {
		return err
	}
	return safewrite.UpdateWith(w.dir, review, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria page: reject"},
		func(old []byte) ([]byte, error) {
			line, err := findRetainProposal(old, review, id)
			if err != nil {
				return nil, err
			}
			return retain.RemoveReviewLines(old, []int{line}), nil
		})
}

func findRetainProposal(data []byte, review, id string) (int, error) {
	for _, p := range retain.ParseReview(data) {
		if retainProposalID(p) == id {
			return p.Line, nil
		}
	}
	return 0, invalidError{fmt.Errorf("%w %s in %s (reload: the file changed)", ErrNoProposal, id, review)}
}

// replaceOnLine replaces the first old on the 1-based line n with new,
// keeping every other byte.
func replaceOnLine(data []byte, n int, old, new string) []byte {
	raw := bytes.SplitAfter(data, []byte("\n"))
	if n < 1 || n > len(raw) {
		return data
	}
	raw[n-1] = bytes.Replace(raw[n-1], []byte(old), []byte(new), 1)
	return bytes.Join(raw, nil)
}

// CoreProposal is one proposal of review/core-proposals.md.
type CoreProposal struct {
	ID string `json:"id"` // reflect's key: p_… (a recurring fact), s_… (a stale line)
	// Block is the core-memory block it is proposed for ("Facts",
	// "Preferences"), or "Stale" for a line of memory.md that the logs
	// have since contradicted.
	Block string `json:"block"`
	// Text is what accepting appends to the block; "" for a stale line,
	// which needs a person's edit (memoria core replace).
	Text     string   `json:"text"`
	Proposal string   `json:"proposal"` // the proposal as written, without its box and key
	Sources  []string `json:"sources"`  // the citations it gives
	State    string   `json:"state"`    // open, accepted ([x]) or rejected ([-])
	Line     int      `json:"line"`
}

var (
	citationRE = regexp.MustCompile(`[A-Za-z0-9_./-]+\.md#L\d+(?:-L?\d+)?`)
	mentionRE  = regexp.MustCompile(`@([\p{L}\p{N}][\p{L}\p{N}_.-]*)`)
)

// CoreProposals lists the proposals reflect made for core memory, in file
// order; none when there is no proposals file.
func (w *Workspace) CoreProposals() ([]CoreProposal, error) {
	data, _, err := safewrite.Snapshot(w.dir, CoreProposalsFile)
	if err != nil {
		return nil, err
	}
	return parseCoreProposals(data), nil
}

func parseCoreProposals(data []byte) []CoreProposal {
	out := []CoreProposal{}
	for _, l := range reflect.ParseProposals(data) {
		p := CoreProposal{ID: l.Key, Block: l.Block, Proposal: l.Body, Line: l.Line, State: "open", Sources: []string{}}
		switch l.Box {
		case "x", "X":
			p.State = "accepted"
		case "-":
			p.State = "rejected"
		}
		p.Sources = append(p.Sources, citationRE.FindAllString(l.Body, -1)...)
		if p.Block != "Stale" {
			text, _, _ := strings.Cut(l.Body, " — on ")
			text = mentionRE.ReplaceAllStringFunc(text, func(s string) string { return memory.EntityName(s[1:]) })
			p.Text = "- " + strings.TrimSpace(text)
		}
		out = append(out, p)
	}
	return out
}

// AcceptCoreProposal appends the proposal's text (or text, when not "")
// to its block of core memory, as CoreAppend does, then marks it accepted
// ([x]) in the proposals file. A stale-line proposal cannot be accepted
// this way: it needs an edit of the line it names (CoreReplace).
func (w *Workspace) AcceptCoreProposal(ctx context.Context, id, text string, o CoreOptions) (CoreProposal, error) {
	p, err := w.coreProposal(id)
	if err != nil {
		return p, err
	}
	if p.State != "open" {
		return p, invalidError{fmt.Errorf("proposal %s is already %s", id, p.State)}
	}
	if p.Block == "Stale" {
		return p, invalidError{fmt.Errorf("proposal %s names a stale line of %s: edit it (memoria core replace), then reject the proposal", id, w.CorePath())}
	}
	if strings.TrimSpace(text) == "" {
		text = p.Text
	}
	if err := w.CoreAppend(ctx, p.Block, text, o); err != nil && !errors.Is(err, errIndex) {
		return p, err
	}
	p.Text = text
	return p, w.markCoreProposal(id, "[x]", o)
}

// RejectCoreProposal marks the proposal rejected ([-]), which keeps
// reflect from proposing it again.
func (w *Workspace) RejectCoreProposal(id string, o CoreOptions) error {
	p, err := w.coreProposal(id)
	if err != nil {
		return err
	}
	if p.State != "open" {
		return invalidError{fmt.Errorf("proposal %s is already %s", id, p.State)}
	}
	return w.markCoreProposal(id, "[-]", o)
}

func (w *Workspace) coreProposal(id string) (CoreProposal, error) {
	ps, err := w.CoreProposals()
	if err != nil {
		return CoreProposal{}, err
	}
	for _, p := range ps {
		if p.ID == id {
			return p, nil
		}
	}
	return CoreProposal{}, invalidError{fmt.Errorf("%w %s in %s (reload: the file changed)", ErrNoProposal, id, CoreProposalsFile)}
}

// markCoreProposal sets the box of the open proposal id, under the write
// lock.
func (w *Workspace) markCoreProposal(id, box string, o CoreOptions) error {
	return safewrite.UpdateWith(w.dir, CoreProposalsFile, safewrite.Options{LockTimeout: o.LockTimeout, Holder: "memoria page: core proposal"},
		func(old []byte) ([]byte, error) {
			for _, p := range parseCoreProposals(old) {
				if p.ID == id && p.State == "open" {
					return replaceOnLine(old, p.Line, "[ ]", box), nil
				}
			}
			return nil, invalidError{fmt.Errorf("%w %s open in %s (reload: the file changed)", ErrNoProposal, id, CoreProposalsFile)}
		})
}
