/**
 * The publisher table and coverage matrix of docs/publishers.md, the README's module summary and each
 * module README's coverage section, generated from the registry: `npm run generate` writes them
 * (scripts/generate.mjs bundles this file with the registry), and test/publishers/readme-table.test.ts
 * fails when docs/publishers.md is out of date. Docs only: nothing in the Worker imports it.
 */
import { OPTIONAL_REVIEW_FIELDS } from "../../src/core/reviews/optional-fields";
import { COLLECTION_OPTIONS } from "../../src/core/tasks/collection";
import { SUMMARY_FIELDS } from "../../src/core/tasks/publisher-summary";
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

export const COVERAGE_START = "<!-- coverage:start (npm run generate) -->";
export const COVERAGE_END = "<!-- coverage:end -->";

const code = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(", ");
const yes = (provided: boolean) => (provided ? "yes" : "no");

/**
 * A module README's coverage section, markers excluded: one row per collection option, part of
 * `publisher_summary` and optional review field, each as GET /publishers/{domain} lists it.
 */
export function moduleCoverage(p: PublisherListing): string {
  return [
    "## Coverage",
    "",
    `What the module provides beyond the required review fields, as \`GET /publishers/${p.domain}\` lists it`,
    "([Coverage](../../../docs/publishers.md#coverage)). A claimed review field is checked on the fixture's",
    `\`coverageSample\` (\`test/publishers/${p.module}/site.ts\`) by \`test/publishers/contract.test.ts\`;`,
    "it is absent on a review the publisher shows without it.",
    "",
    "| Option or field | Provided |",
    "|---|---|",
    ...COLLECTION_OPTIONS.map((option) => `| \`${option}\` | yes |`),
    `| \`sort\` | ${code(p.sorts)} |`,
    ...SUMMARY_FIELDS.map(
      (part) => `| \`publisher_summary.${part}\` | ${yes(p.summaryFields.includes(part))} |`,
    ),
    ...OPTIONAL_REVIEW_FIELDS.map((field) => `| \`${field}\` | ${yes(p.reviewFields.includes(field))} |`),
  ].join("\n");
}

/**
 * A module README with its coverage section between the markers replaced, or inserted before the
 * README's first section where it has none yet (a new module gets it from its first generator run).
 */
export function withModuleCoverage(readme: string, p: PublisherListing): string {
  const block = `${COVERAGE_START}\n${moduleCoverage(p)}\n${COVERAGE_END}`;
  const start = readme.indexOf(COVERAGE_START);
  const end = readme.indexOf(COVERAGE_END);
  if (start >= 0 && end > start)
    return `${readme.slice(0, start)}${block}${readme.slice(end + COVERAGE_END.length)}`;
  const section = /^## /m.exec(readme);
  if (!section) return `${readme.trimEnd()}\n\n${block}\n`;
  return `${readme.slice(0, section.index)}${block}\n\n${readme.slice(section.index)}`;
}

export const MATRIX_START = "<!-- coverage-matrix:start -->";
export const MATRIX_END = "<!-- coverage-matrix:end -->";

/** Short column heads for the review fields of the docs' coverage matrix. */
const FIELD_HEADS: Record<(typeof OPTIONAL_REVIEW_FIELDS)[number], string> = {
  title: "title",
  likes: "likes",
  author_review_count: "author reviews",
  author_photo_count: "author photos",
  author_badges: "badges",
  photos: "photos",
  sub_ratings: "sub-ratings",
  translated_text: "translation",
};

/** docs/publishers.md's coverage matrix, markers excluded: one row per dedicated module, by module name. */
export function coverageMatrix(publishers: readonly PublisherListing[] = listPublishers()): string {
  const rows = publishers
    .filter((p) => p.support === "dedicated")
    .sort((a, b) => a.module.localeCompare(b.module))
    .map((p) =>
      [
        `[\`${p.module}\`](../src/publishers/${p.module}/README.md)`,
        p.sorts.join(", "),
        p.summaryFields.join(", ") || "–",
        ...OPTIONAL_REVIEW_FIELDS.map((field) => (p.reviewFields.includes(field) ? "✓" : "")),
      ].join(" | "),
    );
  return [
    `| Module | sort | publisher_summary | ${OPTIONAL_REVIEW_FIELDS.map((f) => FIELD_HEADS[f]).join(" | ")} |`,
    `|---|---|---|${OPTIONAL_REVIEW_FIELDS.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** docs/publishers.md with the coverage matrix between its markers replaced (the markers must be there). */
export function withCoverageMatrix(doc: string, matrix: string = coverageMatrix()): string {
  const start = doc.indexOf(MATRIX_START);
  const end = doc.indexOf(MATRIX_END);
  if (start < 0 || end < start)
    throw new Error(`docs/publishers.md needs ${MATRIX_START} and ${MATRIX_END}, in that order`);
  return `${doc.slice(0, start + MATRIX_START.length)}\n${matrix}\n${doc.slice(end)}`;
}
