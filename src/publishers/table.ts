/**
 * The publisher table of docs/publishers.md, generated from the registry (`npm run readme:publishers` writes it;
 * test/publishers/readme-table.test.ts fails when docs/publishers.md is out of date).
 */
import { listPublishers, type PublisherListing } from "./registry";

export const TABLE_START = "<!-- publishers:start -->";
export const TABLE_END = "<!-- publishers:end -->";

/** A table cell: pipes would split the cell, new lines the row. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ");

function row(p: PublisherListing): string {
  const domains = [`\`${p.domain}\``, ...p.aliases.map((alias) => `\`${alias}\``)].join(", ");
  const module = p.dedicated ? `\`${p.module}\`` : "generic";
  return `| ${domains} | ${cell(p.displayName)} | ${p.kind} | ${module} | ${p.loginRequired ? "yes" : "no"} | ${p.lookup ? "yes" : "no"} | ${cell(p.ratingScale)} |`;
}

/** The table, markers excluded. */
export function publisherTable(publishers: readonly PublisherListing[] = listPublishers()): string {
  const dedicated = publishers.filter((p) => p.dedicated).length;
  return [
    `${publishers.length} publishers: ${dedicated} with a dedicated module, ${publishers.length - dedicated} served by the generic structured-data module. Any other domain is accepted too and scraped by the generic module.`,
    "",
    "| Publisher key (aliases) | Name | Kind | Module | Login cookies | Lookup | Rating scale |",
    "|---|---|---|---|---|---|---|",
    ...publishers.map(row),
  ].join("\n");
}

/** Document text with the table between the markers replaced; throws when the markers are missing. */
export function withPublisherTable(readme: string, table: string = publisherTable()): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/publishers.md needs ${TABLE_START} and ${TABLE_END}, in that order`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}
