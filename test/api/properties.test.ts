import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  DELETE,
  ENDPOINTS,
  type EndpointName,
  createAccount,
  post,
  publisherConfig,
  submitBody,
  withValue,
} from "../helpers/api";

/** Every message the API may put in a 400 tree: the DRF messages plus the additions docs/api.md documents. */
const DOCUMENTED_MESSAGES = [
  /^This field is required\.$/,
  /^This field may not be blank\.$/,
  /^This field may not be null\.$/,
  /^Not a valid string\.$/,
  /^Must be a valid boolean\.$/,
  /^A valid integer is required\.$/,
  /^Expected a list of items but got type "(str|int|float|bool|dict|NoneType)"\.$/,
  /^Expected a dictionary of items but got type "(str|int|float|bool|list|NoneType)"\.$/,
  /^Enter a valid URL\.$/,
  /^Ensure this field has no more than \d+ characters\.$/,
  /^Ensure this value is (greater|less) than or equal to \d+\.$/,
  /^"[\s\S]*" is not a valid choice\.$/,
  /^Ensure this field has no more than \d+ elements\.$/,
  /^Enter a valid 3-letter country code\.$/,
  /^Enter a valid domain name\.$/,
  /^This dictionary may not be empty\.$/,
  /^This list may not be empty\.$/,
  /^Enter a URL on \S+ or one of its subdomains\.$/,
  /^Duplicate publisher: "[\s\S]*" is the same publisher as "\S+"\.$/,
  /^Invalid data\. Expected a dictionary, but got \w+\.$/,
  /^Enter a valid cookie (name|value)\.$/,
  /^Enter a domain that is \S+, one of its subdomains or a parent domain\.$/,
];

type Tree = { [key: string]: unknown };

/** Checks the documented error shape: a tree of objects whose leaves are non-empty lists of documented messages. */
function expectErrorTree(node: unknown, path: string[] = []): void {
  if (Array.isArray(node)) {
    expect(node.length, path.join(".")).toBeGreaterThan(0);
    for (const message of node) {
      expect(typeof message, path.join(".")).toBe("string");
      expect(
        DOCUMENTED_MESSAGES.some((re) => re.test(message)),
        `${path.join(".")}: ${message}`,
      ).toBe(true);
    }
    return;
  }
  expect(typeof node === "object" && node !== null, path.join(".")).toBe(true);
  const entries = Object.entries(node as Tree);
  expect(entries.length, path.join(".")).toBeGreaterThan(0);
  for (const [key, child] of entries) expectErrorTree(child, [...path, key]);
}

async function answer(
  path: string,
  body: unknown,
): Promise<{ status: number; body: { error?: unknown; details?: unknown } }> {
  const res = await post(path, JSON.stringify(body));
  expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  return { status: res.status, body: await res.json<{ error?: unknown; details?: unknown }>() };
}

const names = Object.keys(ENDPOINTS) as EndpointName[];
let apiKey: string;

beforeAll(async () => {
  ({ apiKey } = await createAccount({ plan: "unlimited" }));
});

describe("any JSON body", () => {
  it.each(names)("%s: never a 5xx; a refusal is 400 or 401 in the documented shape", async (name) => {
    const { path, errorText } = ENDPOINTS[name];
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (body) => {
        const res = await answer(path, body);
        expect([400, 401]).toContain(res.status);
        if (res.status === 401) return;
        expect(res.body.error).toBe(errorText);
        expectErrorTree(res.body.details);
      }),
      { numRuns: 80 },
    );
  });

  it.each(names)("%s: any object with a valid key is answered without a 5xx", async (name) => {
    const { path, errorText } = ENDPOINTS[name];
    const withKey = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })).map((extra) =>
      name === "submit"
        ? {
            ...extra,
            data: { ...(typeof extra.data === "object" && extra.data ? extra.data : {}), api_key: apiKey },
          }
        : { ...extra, api_key: apiKey },
    );
    await fc.assert(
      fc.asyncProperty(withKey, async (body) => {
        const res = await answer(path, body);
        expect(res.status).toBeLessThan(500);
        if (res.status === 400) {
          expect(res.body.error).toBe(errorText);
          expectErrorTree(res.body.details);
        }
      }),
      { numRuns: 80 },
    );
  });
});

describe("submit bodies near a valid one", () => {
  const publishers = {
    "example.com": publisherConfig("example.com"),
    "yelp.com": publisherConfig("yelp.com"),
  };
  const fieldPaths: string[][] = [
    ["job"],
    ["data"],
    ["data", "foreign_key"],
    ["data", "lazy"],
    ["data", "business"],
    ["data", "business", "name"],
    ["data", "business", "tags"],
    ["data", "business", "address"],
    ["data", "business", "address", "country"],
    ["data", "publishers"],
    ["data", "publishers", "example.com"],
    ["data", "publishers", "example.com", "profile_key"],
    ["data", "publishers", "example.com", "last_review_hashes"],
    ["data", "publishers", "example.com", "first_page_only"],
    ["data", "publishers", "yelp.com", "persona"],
    ["data", "publishers", "yelp.com", "persona", "additional_cookies", "login"],
    ["data", "publishers", "yelp.com", "persona", "additional_cookies", "login", "0", "value"],
  ];
  const change = fc.record({
    path: fc.constantFrom(...fieldPaths),
    value: fc.oneof(fc.constant<unknown>(DELETE), fc.jsonValue({ maxDepth: 3 }), fc.string(), fc.webUrl()),
  });

  it("answer 201, or 400 with every message documented and the change's field among the failures", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 3 }), async (changes) => {
        let body: unknown = submitBody(apiKey, publishers);
        for (const { path, value } of changes) {
          // A change below a field an earlier change replaced has nowhere to go.
          try {
            body = withValue(body, path, value);
          } catch {
            return;
          }
        }
        const res = await answer(ENDPOINTS.submit.path, body);
        expect([201, 400]).toContain(res.status);
        if (res.status === 201) return;
        expect(res.body.error).toBe("Invalid payload");
        expectErrorTree(res.body.details);
        const roots = new Set(changes.map((c) => c.path[0]));
        expect(Object.keys(res.body.details as Tree).every((key) => roots.has(key))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
