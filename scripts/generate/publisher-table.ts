/**
 * The publisher table of docs/publishers.md, generated from the registry: `npm run generate` writes it
 * (scripts/generate.mjs bundles this file with the registry), and test/publishers/readme-table.test.ts
 * fails when docs/publishers.md is out of date. Docs only: nothing in the Worker imports it.
 */
import { listPublishers, type PublisherListing } from "../../src/publishers/registry";

export const TABLE_START = "<!-- publishers:start -->";
export const TABLE_END = "<!-- publishers:end -->";

/** A table cell: pipes would split the cell, new lines the row. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ");

const SUPPORT_CELL: Record<PublisherListing["support"], string> = {
  dedicated: "dedicated",
  "structured-data": "structured data (evidenced)",
  "embedded-data": "embedded data (evidenced)",
  unverified: "unverified",
};

function row(p: PublisherListing): string {
  const domains = [`\`${p.domain}\``, ...p.aliases.map((alias) => `\`${alias}\``)].join(", ");
  const module = p.dedicated ? `\`${p.module}\`` : "generic";
  const support =
    p.support === "dedicated" && p.evidenceDate
      ? `dedicated (evidence ${p.evidenceDate})`
      : SUPPORT_CELL[p.support];
  const supportCell = p.note ? `${support}: ${cell(p.note)}` : support;
  return `| ${domains} | ${cell(p.displayName)} | ${p.kind} | ${module} | ${supportCell} | ${p.loginRequired ? "yes" : "no"} | ${p.lookup ? "yes" : "no"} | ${cell(p.ratingScale)} |`;
}

/**
 * The table, markers excluded. Its count of supported publishers counts only what is dedicated or
 * evidenced (structured-data, embedded-data); unverified entries are listed, never counted as supported.
 */
export function publisherTable(publishers: readonly PublisherListing[] = listPublishers()): string {
  const dedicated = publishers.filter((p) => p.support === "dedicated").length;
  const markup = publishers.filter((p) => p.support === "structured-data").length;
  const embedded = publishers.filter((p) => p.support === "embedded-data").length;
  const unverified = publishers.length - dedicated - markup - embedded;
  return [
    `${dedicated + markup + embedded} supported publishers: ${dedicated} with a dedicated module, ${markup} with evidence of schema.org review markup and ${embedded} with evidence of review records in the page's own JSON, both of which the generic module reads. ` +
      `${unverified} more are listed as unverified: the generic module tries them, but nobody has checked that their pages carry reviews it reads. Any other domain is accepted too and tried the same way.`,
    "",
    "| Publisher key (aliases) | Name | Kind | Module | Support | Login cookies | Lookup | Rating scale |",
    "|---|---|---|---|---|---|---|---|",
    ...publishers.map(row),
  ].join("\n");
}

/** Document text with the table between the markers replaced; throws when the markers are missing. */
export function withPublisherTable(readme: string, table: string = publisherTable()): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/publishers.md needs ${TABLE_START} and ${TABLE_END}, in that order`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

export const SUMMARY_START = "<!-- modules:start -->";
export const SUMMARY_END = "<!-- modules:end -->";

/**
 * The README's count of working publishers and its list of dedicated modules, each linked to its
 * README: generated like the table, so the front page never claims more (or fewer) than the registry.
 */
export function moduleSummary(publishers: readonly PublisherListing[] = listPublishers()): string {
  const dedicated = publishers.filter((p) => p.support === "dedicated");
  const evidenced = publishers.filter(
    (p) => p.support === "structured-data" || p.support === "embedded-data",
  );
  const links = dedicated
    .map((p) => `[${cell(p.displayName)}](src/publishers/${p.module}/README.md)`)
    .join(" · ");
  return (
    `**${dedicated.length + evidenced.length} supported publishers**: ${dedicated.length} dedicated modules, ` +
    `each in its own folder with a README that says what is verified with real data, and ` +
    (evidenced.length === 0
      ? "no listed publisher yet with evidence that its pages carry review data the generic module reads"
      : `${evidenced.length} listed ${evidenced.length === 1 ? "publisher whose pages carry" : "publishers whose pages carry"} review data the generic module reads`) +
    ` (evidence in \`src/publishers/listed.ts\`). Dedicated: ${links}.`
  );
}

/** README text with the module summary between its markers replaced (the markers must be there). */
export function withModuleSummary(readme: string, summary: string = moduleSummary()): string {
  const start = readme.indexOf(SUMMARY_START);
  const end = readme.indexOf(SUMMARY_END);
  if (start < 0 || end < start)
    throw new Error(`README.md needs ${SUMMARY_START} and ${SUMMARY_END}, in that order`);
  return `${readme.slice(0, start + SUMMARY_START.length)}\n${summary}\n${readme.slice(end)}`;
}
