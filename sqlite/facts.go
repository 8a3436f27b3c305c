package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"memoria/memory"
)

// EntityItems lists, in one query, what the index holds about entities
// (slugs, any case): the lines of their entity pages and the typed facts
// linked to them, never other passages (a passage that merely mentions a
// name is the full-text search's business). The filter narrows as in
// Search. Page lines come first in page order, then facts newest first
// (event time, else the day written; undated facts from bank/ and
// memory.md last), then by path and line.
func (ix *Index) EntityItems(ctx context.Context, slugs []string, f memory.Filter, limit int) ([]memory.EntityItem, error) {
	if len(slugs) == 0 || limit <= 0 {
		return nil, nil
	}
	keys := make([]any, len(slugs))
	for i, s := range slugs {
		keys[i] = strings.ToLower(s)
	}
	cond, args := where(f)
	ph := placeholders(len(keys))
	// The facts off the entity's page are cut at the day of the limit-th
	// one first (a small sort of days), so only the rows kept are read in
	// full: a busy entity has thousands of facts.
	const day = "i.day"
	q := fmt.Sprintf(`SELECT %s, (p.file_id IS NOT NULL) AS on_page
		FROM items i JOIN files f ON f.id = i.file_id
		LEFT JOIN (SELECT DISTINCT file_id FROM entity_pages WHERE lower(slug) IN (%s)) p ON p.file_id = i.file_id
		WHERE i.id IN (SELECT item_id FROM item_entities WHERE slug_key IN (%s))
		AND (p.file_id IS NOT NULL OR (i.kind != `+kindPassageSQL+` AND %s >= coalesce((
			SELECT %s AS day FROM items i WHERE i.id IN (SELECT item_id FROM item_entities WHERE slug_key IN (%s))
			AND i.kind != `+kindPassageSQL+` AND i.file_id NOT IN (SELECT file_id FROM entity_pages WHERE lower(slug) IN (%s))%s
			ORDER BY day DESC LIMIT 1 OFFSET ?), 0)))%s
		ORDER BY on_page DESC,
			CASE WHEN p.file_id IS NOT NULL THEN 0 ELSE %s END DESC,
			f.path, i.start_line
		LIMIT ?`, itemColumns, ph, ph, day, day, ph, ph, cond, cond, day)
	all := append(append(append(append([]any{}, keys...), keys...), keys...), keys...)
	all = append(append(append(all, args...), max(limit-1, 0)), args...)
	all = append(all, limit)
	rows, err := ix.query(ctx, q, all...)
	if err != nil {
		return nil, ix.wrapErr(fmt.Errorf("entity items: %w", err))
	}
	defer rows.Close()
	var out []memory.EntityItem
	for rows.Next() {
		var it memory.EntityItem
		if err := scanItem(rows, &it.Item, &it.OnPage); err != nil {
			return nil, ix.wrapErr(fmt.Errorf("entity items: %w", err))
		}
		out = append(out, it)
	}
	return out, ix.wrapErrNil(rows.Err())
}

// EntityPageOf returns the page of the entity with this slug (any case),
// or ok false when the entity has no page.
func (ix *Index) EntityPageOf(ctx context.Context, slug string) (p memory.EntityPage, ok bool, err error) {
	var aliases string
	row := ix.queryRow(ctx, `SELECT e.slug, e.name, e.aliases, f.path FROM entity_pages e JOIN files f ON f.id = e.file_id
		WHERE lower(e.slug) = ? ORDER BY f.path LIMIT 1`, strings.ToLower(slug))
	switch err := row.Scan(&p.Slug, &p.Name, &aliases, &p.Path); {
	case err == nil:
	case errors.Is(err, sql.ErrNoRows):
		return memory.EntityPage{}, false, nil
	default:
		return memory.EntityPage{}, false, ix.wrapErr(fmt.Errorf("entity page %s: %w", slug, err))
	}
	for _, a := range strings.Split(aliases, "\n") {
		if a = strings.TrimSpace(a); a != "" {
			p.Aliases = append(p.Aliases, a)
		}
	}
	return p, true, nil
}
