import { describe, expect, it } from "vitest";
import readme from "../../docs/publishers.md?raw";
import { listPublishers } from "../../src/publishers/registry";
import {
  TABLE_END,
  TABLE_START,
  publisherTable,
  withPublisherTable,
} from "../../scripts/generate/publisher-table";

/** The text of docs/publishers.md between the publisher table's markers. */
function tableInReadme(text: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  expect(start, "docs/publishers.md has the start marker").toBeGreaterThanOrEqual(0);
  expect(end, "docs/publishers.md has the end marker after it").toBeGreaterThan(start);
  return text.slice(start + TABLE_START.length, end).trim();
}

describe("docs/publishers.md publisher table", () => {
  it("is the table the registry generates (run npm run generate when this fails)", () => {
    expect(tableInReadme(readme)).toBe(publisherTable());
  });

  it("has one row per listed publisher, naming its module", () => {
    const rows = tableInReadme(readme)
      .split("\n")
      .filter((line) => line.startsWith("| `"));
    const publishers = listPublishers();
    expect(rows).toHaveLength(publishers.length);
    for (const [i, p] of publishers.entries()) {
      expect(rows[i].startsWith(`| \`${p.domain}\``), p.domain).toBe(true);
      expect(rows[i]).toContain(p.dedicated ? `| \`${p.module}\` |` : "| generic |");
    }
  });

  it("has a support column, and counts as supported only dedicated modules and evidenced entries", () => {
    const rows = tableInReadme(readme)
      .split("\n")
      .filter((line) => line.startsWith("| `"));
    for (const [i, p] of listPublishers().entries()) {
      const cells = rows[i].split(" | ");
      expect(cells[4], p.domain).toMatch(
        p.support === "dedicated"
          ? /^dedicated/
          : p.support === "structured-data"
            ? /^structured data/
            : p.support === "embedded-data"
              ? /^embedded data/
              : /^unverified/,
      );
    }
    const publishers = listPublishers();
    const dedicated = publishers.filter((p) => p.support === "dedicated").length;
    const embedded = publishers.filter((p) => p.support === "embedded-data").length;
    expect(publisherTable(publishers)).toMatch(
      new RegExp(
        `^${dedicated + embedded} supported publishers: ${dedicated} with a dedicated module, 0 with evidence of schema.org review markup and ${embedded} with evidence of review records`,
      ),
    );
    // An unverified entry never adds to the count; an evidenced one (either kind) does.
    const unverified = publishers.find((p) => p.support === "unverified")!;
    for (const support of ["structured-data", "embedded-data"] as const) {
      const withEvidence = publishers.map((p) => (p === unverified ? { ...p, support } : p));
      expect(publisherTable(withEvidence)).toMatch(
        new RegExp(`^${dedicated + embedded + 1} supported publishers: `),
      );
    }
  });

  it("notices a stale table: a changed registry row no longer matches", () => {
    const publishers = listPublishers();
    const changed = publishers.map((p, i) => (i === 0 ? { ...p, ratingScale: "1–7 moons" } : p));
    expect(tableInReadme(withPublisherTable(readme, publisherTable(changed)))).not.toBe(publisherTable());
    expect(tableInReadme(withPublisherTable(readme, publisherTable(publishers.slice(1))))).not.toBe(
      publisherTable(),
    );
  });

  it("rewrites only the text between the markers", () => {
    const text = `intro\n${TABLE_START}\nold table\n${TABLE_END}\noutro\n`;
    expect(withPublisherTable(text, "new table")).toBe(
      `intro\n${TABLE_START}\nnew table\n${TABLE_END}\noutro\n`,
    );
    expect(() => withPublisherTable("no markers")).toThrow(/publishers:start/);
  });
});
