import { beforeAll, describe, expect, inject, it } from "vitest";
import { canonicalPublisherKey } from "../../src/core/publishers/canonical";
import { LISTED } from "../../src/publishers/listed";
import { MODULES, publisherFor } from "../../src/publishers/registry";
import { call } from "../helpers/api";

interface PublisherRow {
  domain: string;
  aliases: string[];
  display_name: string;
  kind: string;
  module: string;
  dedicated: boolean;
  login_required: boolean;
  cookies_required: boolean;
  lookup: boolean;
  rating_scale: string;
  sorts: string[];
  publisher_summary: string[];
  collection_options: string[];
  review_fields: string[];
  support: "dedicated" | "structured-data" | "embedded-data" | "unverified";
  evidence_date?: string;
  note?: string;
}
interface PublishersBody {
  count: number;
  publishers: PublisherRow[];
}

async function checkAgainstDocument(
  schema: string,
  instance: unknown,
): Promise<{ valid: boolean; error?: string }> {
  const document = await (await call("/openapi.json")).json();
  const res = await fetch(`${inject("openapiValidatorUrl")}instance`, {
    method: "POST",
    body: JSON.stringify({ document, schema, instance }),
  });
  return await res.json<{ valid: boolean; error?: string }>();
}

describe("GET /publishers", () => {
  let res: Response;
  let body: PublishersBody;
  beforeAll(async () => {
    res = await call("/publishers");
    body = await res.json<PublishersBody>();
  });

  it("answers 200 without an API key, with 80+ publishers sorted by domain and a true count", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(body.publishers.length).toBeGreaterThanOrEqual(80);
    expect(body.count).toBe(body.publishers.length);
    const domains = body.publishers.map((p) => p.domain);
    expect(domains).toEqual([...domains].sort((a, b) => a.localeCompare(b)));
  });

  it("validates against the PublishersResponse schema of its own OpenAPI document", async () => {
    expect(await checkAgainstDocument("PublishersResponse", body)).toEqual({ valid: true });
  });

  it("is checked by a schema validation that rejects a wrong answer", async () => {
    const broken = structuredClone(body);
    (broken.publishers[0] as unknown as Record<string, unknown>).dedicated = "no";
    delete (broken.publishers[1] as Partial<PublisherRow>).rating_scale;
    const result = await checkAgainstDocument("PublishersResponse", broken);
    expect(result.valid).toBe(false);
    expect(result.error).toMatch(/dedicated|rating_scale/);
  });

  it("documents the endpoint with its example, which also validates", async () => {
    const document = await (
      await call("/openapi.json")
    ).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { example?: unknown }> };
    }>();
    expect(Object.keys(document.paths["/publishers"].get.responses)).toEqual(
      expect.arrayContaining(["200", "405"]),
    );
    const example = document.components.schemas.PublishersResponse.example;
    expect(example).toBeDefined();
    expect(await checkAgainstDocument("PublishersResponse", example)).toEqual({ valid: true });
  });

  it("lists every domain once, as a canonical publisher key, aliases included", () => {
    const keys = body.publishers.flatMap((p) => [p.domain, ...p.aliases]);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(canonicalPublisherKey(key), key).toBe(key);
  });

  it("lists every dedicated module under its own name, from the module's data", () => {
    for (const module of MODULES) {
      const row = body.publishers.find((p) => p.domain === module.domains[0]);
      expect(row, module.name).toMatchObject({
        module: module.name,
        dedicated: true,
        aliases: module.domains.slice(1),
        display_name: module.displayName,
        login_required: module.loginRequired,
        lookup: Boolean(module.lookup),
        rating_scale: module.ratingScale,
      });
    }
    expect(
      body.publishers
        .filter((p) => p.dedicated)
        .map((p) => p.module)
        .sort(),
    ).toEqual(MODULES.map((m) => m.name).sort());
  });

  it("lists the sorts submit accepts for each publisher: newest everywhere, the others where the module asks the publisher for them", () => {
    for (const row of body.publishers) expect(row.sorts, row.domain).toEqual(publisherFor(row.domain).sorts);
    const sorts = (domain: string) => body.publishers.find((p) => p.domain === domain)?.sorts;
    expect(sorts("maps.google.com")).toEqual(["newest", "relevant", "highest", "lowest"]);
    expect(sorts("yelp.com")).toEqual(["newest", "relevant", "highest", "lowest"]);
    expect(sorts("trustpilot.com")).toEqual(["newest", "relevant"]);
    expect(sorts("tripadvisor.com")).toEqual(["newest"]);
    expect(sorts("amazon.com")).toEqual(["newest"]);
  });

  it("lists the parts of publisher_summary each module reads", () => {
    for (const module of MODULES) {
      const row = body.publishers.find((p) => p.domain === module.domains[0]);
      expect(row?.publisher_summary, module.name).toEqual(module.summaryFields ?? []);
    }
    const parts = (domain: string) => body.publishers.find((p) => p.domain === domain)?.publisher_summary;
    expect(parts("trustpilot.com")).toEqual(["rating", "review_count", "histogram"]);
    expect(parts("maps.google.com")).toEqual(["rating", "review_count"]);
    expect(parts("yelp.com")).toEqual(["review_count"]);
  });

  it("lists the optional review fields each module fills and the collection options every publisher takes", () => {
    for (const module of MODULES) {
      const row = body.publishers.find((p) => p.domain === module.domains[0]);
      expect(new Set(row?.review_fields), module.name).toEqual(new Set(module.reviewFields ?? []));
    }
    for (const row of body.publishers)
      expect(row.collection_options, row.domain).toEqual(["since", "max_reviews"]);
    const fields = (domain: string) => body.publishers.find((p) => p.domain === domain)?.review_fields;
    // In the API's order (title, likes, author_review_count, …), whatever order the module declares.
    expect(fields("yelp.com")).toEqual(["likes", "author_review_count", "photos"]);
    expect(fields("trustpilot.com")).toEqual(["title", "likes"]);
    expect(fields("amazon.com")).toEqual([]);
  });

  it("has no entry that claims a module it does not have", () => {
    const names = new Set(MODULES.map((m) => m.name));
    for (const row of body.publishers) {
      if (row.dedicated) expect(names.has(row.module), row.domain).toBe(true);
      else expect(row.module, row.domain).toBe("generic");
      // What the list says is what submit and the queue dispatch use for that key.
      const publisher = publisherFor(row.domain);
      expect(publisher.module.name, row.domain).toBe(row.module);
      expect(publisher.dedicated, row.domain).toBe(row.dedicated);
      expect(publisher.loginRequired, row.domain).toBe(row.login_required);
      expect(row.cookies_required, row.domain).toBe(row.login_required);
      expect(publisher.lookup, row.domain).toBe(row.lookup);
    }
  });

  it("shows the evidence dates of the modules checked against the 2026-11 audit (issue 35)", () => {
    const dates = Object.fromEntries(body.publishers.map((row) => [row.domain, row.evidence_date]));
    expect(dates).toMatchObject({
      "trustpilot.com": "2026-04-18",
      "tripadvisor.com": "2026-10",
      "agoda.com": "2026-10",
      "expedia.com": "2026-10-05",
      "opentable.com": "2026-06",
      "capterra.com": "2026-08-30",
      "glassdoor.com": "2026-09-28",
      "maps.google.com": "2026-09-13",
    });
  });

  it("says how far each entry is supported: dedicated modules with their evidence date, others structured-data or embedded-data only with evidence", () => {
    for (const row of body.publishers) {
      if (row.dedicated) {
        expect(row.support, row.domain).toBe("dedicated");
        const module = MODULES.find((m) => m.name === row.module)!;
        if (module.evidenceDate) expect(row.evidence_date, row.domain).toBe(module.evidenceDate);
        else expect(row, row.domain).not.toHaveProperty("evidence_date");
      } else {
        const listed = LISTED.find((l) => l.domain === row.domain)!;
        expect(row.support, row.domain).toBe(
          listed.structuredData ? "structured-data" : listed.embeddedData ? "embedded-data" : "unverified",
        );
        expect(row, row.domain).not.toHaveProperty("evidence_date");
      }
    }
  });

  it("claims none of the sites the 2026-11 evidence shows the generic module cannot read, and says what it knows of walls", () => {
    const domains = new Set(body.publishers.flatMap((p) => [p.domain, ...p.aliases]));
    // Script-only or API-only reviews, no Review markup (map apps, app stores, BBB, travel and restaurant APIs).
    // Either absent, or read by a dedicated module of its own (issue 28's app stores, BBB, travel APIs).
    for (const domain of [
      "bing.com",
      "yandex.com",
      "2gis.com",
      "apps.apple.com",
      "play.google.com",
      "bbb.org",
      "opentable.com",
      "expedia.com",
      "zillow.com",
    ]) {
      const row = body.publishers.find((p) => p.domain === domain || p.aliases.includes(domain));
      if (row) expect(row.dedicated, domain).toBe(true);
      else expect(domains.has(domain), domain).toBe(false);
    }
    expect(body.publishers.find((p) => p.domain === "amazon.com")).toMatchObject({
      login_required: true,
      cookies_required: true,
      support: "unverified",
      note: expect.stringContaining("signed-in"),
    });
    expect(body.publishers.find((p) => p.domain === "indeed.com")).toMatchObject({
      support: "unverified",
      note: expect.stringContaining("bot wall"),
    });
  });

  it("shows embedded-data only where listed.ts cites evidence: a public source with its commit and date", () => {
    const embedded = body.publishers.filter((p) => p.support === "embedded-data");
    // walmart.com was the one such entry until its dedicated module (issue 39) took its domain.
    expect(embedded.map((p) => p.domain)).toEqual([]);
    expect(body.publishers.find((p) => p.domain === "walmart.com")).toMatchObject({ support: "dedicated" });
    for (const row of embedded) {
      const evidence = LISTED.find((l) => l.domain === row.domain)!.embeddedData!;
      expect(evidence.evidence).toMatch(/@[0-9a-f]{7,40} \(\d{4}-\d{2}-\d{2}\)/);
      expect(evidence.date).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
    }
  });

  it("shows the generic-served publishers with their listed data", () => {
    const generic = body.publishers.filter((p) => !p.dedicated);
    expect(generic.length).toBeGreaterThan(0);
    for (const row of generic) {
      const listed = LISTED.find((l) => l.domain === row.domain);
      expect(listed, row.domain).toBeDefined();
      expect(row).toMatchObject({
        display_name: listed?.displayName,
        kind: listed?.kind,
        rating_scale: listed?.ratingScale,
        lookup: false,
      });
    }
    expect(body.publishers.find((p) => p.domain === "amazon.com")).toMatchObject({
      aliases: expect.arrayContaining(["amazon.co.uk", "amazon.de"]),
      kind: "retail",
    });
  });

  it("is cacheable: Cache-Control public with a max-age, and an ETag that answers 304", async () => {
    // A minute: the registry changes only with a deploy, but each entry's health changes with the tasks.
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
    const tag = res.headers.get("ETag");
    expect(tag).toBeTruthy();
    const again = await call("/publishers", { headers: { "If-None-Match": tag ?? "" } });
    expect(again.status).toBe(304);
  });

  it("answers the same at /publishers/ and to HEAD without a body", async () => {
    const slash = await call("/publishers/");
    expect(slash.status).toBe(200);
    expect(await slash.json()).toEqual(body);
    const head = await call("/publishers", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("answers 405 with Allow: GET, HEAD to %s", async (method) => {
    for (const path of ["/publishers", "/publishers/"]) {
      const answer = await call(path, {
        method,
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      expect(answer.status, path).toBe(405);
      expect(answer.headers.get("Allow")).toBe("GET, HEAD");
      expect(await answer.json()).toEqual({ error: `Method "${method}" not allowed.` });
    }
  });
});

describe("GET /publishers/{domain}", () => {
  it("shows one publisher's coverage: sorts, publisher_summary parts, collection options and review fields", async () => {
    const res = await call("/publishers/yelp.com");
    expect(res.status).toBe(200);
    const yelp = await res.json<PublisherRow>();
    expect({
      sorts: yelp.sorts,
      publisher_summary: yelp.publisher_summary,
      collection_options: yelp.collection_options,
      review_fields: yelp.review_fields,
    }).toEqual({
      sorts: ["newest", "relevant", "highest", "lowest"],
      publisher_summary: ["review_count"],
      collection_options: ["since", "max_reviews"],
      review_fields: ["likes", "author_review_count", "photos"],
    });
    expect(await checkAgainstDocument("Publisher", yelp)).toEqual({ valid: true });
  });

  it("answers one publisher by domain or alias, any case, www. dropped, with its health, in the documented shape", async () => {
    const list = await (
      await call("/publishers")
    ).json<PublishersBody & { publishers: (PublisherRow & { health: unknown })[] }>();
    const withAlias = list.publishers.find((p) => p.aliases.length > 0);
    expect(withAlias, "some publisher has an alias").toBeDefined();
    for (const key of [withAlias!.domain, withAlias!.aliases[0], `WWW.${withAlias!.domain.toUpperCase()}`]) {
      const res = await call(`/publishers/${key}`);
      expect(res.status, key).toBe(200);
      const one = await res.json<PublisherRow & { health: { status: string } }>();
      expect(one.domain).toBe(withAlias!.domain);
      expect(["operational", "degraded", "failing", "unknown"]).toContain(one.health.status);
      expect(await checkAgainstDocument("Publisher", one)).toEqual({ valid: true });
    }
  });

  it("answers 404 naming the domain for a publisher that is not listed", async () => {
    const res = await call("/publishers/not-listed.example");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: "Not found",
      details: {
        domain: [
          'No publisher "not-listed.example" is listed; submit still accepts any domain (generic module).',
        ],
      },
    });
  });

  it("answers 404, never 500, to an encoded percent sign or a malformed escape (decoded once)", async () => {
    for (const path of [
      "/publishers/%25",
      "/publishers/%25/",
      "/publishers/%E0%A4%A",
      "/publishers/a%25b.com",
    ]) {
      for (const method of ["GET", "HEAD"]) {
        const res = await call(path, { method });
        expect(res.status, `${method} ${path}`).toBe(404);
        if (method === "GET") expect((await res.json<{ error: string }>()).error).toBe("Not found");
      }
    }
    const named = await (await call("/publishers/%25")).json<{ details: { domain: string[] } }>();
    expect(named.details.domain[0]).toContain('"%"');
  });
});
