import { beforeAll, describe, expect, it } from "vitest";
import {
  DELETE,
  createAccount,
  loginCookies,
  nest,
  postJson,
  publisherConfig,
  submitBody,
  withValue,
} from "../helpers/api";

const SUBMIT = "/submit/request-reviews/";
const REQUIRED = "This field is required.";
const SINCE =
  "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.uuu]][+HH:MM|-HH:MM|Z].";

let apiKey: string;

beforeAll(async () => {
  ({ apiKey } = await createAccount({ plan: "unlimited" }));
});

/** A valid body naming a generic publisher and both publishers that need login cookies. */
function fullBody() {
  return submitBody(apiKey, {
    "example.com": publisherConfig("example.com"),
    "facebook.com": publisherConfig("facebook.com"),
    "yelp.com": publisherConfig("yelp.com"),
  });
}

async function expectInvalid(body: unknown, details: Record<string, unknown>) {
  const res = await postJson(SUBMIT, body);
  expect({ status: res.status, body: res.body }).toEqual({
    status: 400,
    body: { error: "Invalid payload", details },
  });
}

describe("submit: required fields", () => {
  const paths: string[][] = [
    ["job"],
    ["data"],
    ["data", "api_key"],
    ["data", "foreign_key"],
    ["data", "business"],
    ["data", "publishers"],
    ...["id", "name", "address", "phone", "description", "tags"].map((f) => ["data", "business", f]),
    ...["street", "city", "state", "zip", "country"].map((f) => ["data", "business", "address", f]),
    ...["profile_key", "last_review_hashes", "first_page_only"].map((f) => [
      "data",
      "publishers",
      "example.com",
      f,
    ]),
    ...["last_review_hashes", "first_page_only"].flatMap((f) => [
      ["data", "publishers", "facebook.com", f],
      ["data", "publishers", "yelp.com", f],
    ]),
    ...["facebook.com", "yelp.com"].flatMap((p) => [
      ["data", "publishers", p, "persona", "additional_cookies", "login"],
      ["data", "publishers", p, "persona", "additional_cookies"],
      ["data", "publishers", p, "persona"],
    ]),
    ...["name", "value", "domain"].map((f) => [
      "data",
      "publishers",
      "yelp.com",
      "persona",
      "additional_cookies",
      "login",
      "0",
      f,
    ]),
  ];

  it.each(paths.map((p) => [p.join("."), p]))("%s missing", async (_name, path) => {
    await expectInvalid(withValue(fullBody(), path, DELETE), nest(path, [REQUIRED]));
  });

  it("the body itself is valid", async () => {
    expect((await postJson(SUBMIT, fullBody())).status).toBe(201);
  });
});

describe("submit: type errors", () => {
  const str = 'Expected a list of items but got type "str".';
  const cases: [string[], unknown, unknown][] = [
    [["data", "foreign_key"], 42, ["Not a valid string."]],
    [["data", "foreign_key"], true, ["Not a valid string."]],
    [["data", "foreign_key"], null, ["This field may not be null."]],
    [["data", "foreign_key"], "   ", ["This field may not be blank."]],
    [["data", "foreign_key"], "", ["This field may not be blank."]],
    [["data", "api_key"], 12345, ["Not a valid string."]],
    [["data", "business", "name"], ["Cafe"], ["Not a valid string."]],
    [["data", "business", "name"], { first: "Cafe" }, ["Not a valid string."]],
    [["data", "business", "name"], "\ud800", ["Not a valid string."]],
    [["data", "business", "phone"], "\t ", ["This field may not be blank."]],
    [["data", "business", "address", "city"], null, ["This field may not be null."]],
    [["data", "business", "address", "country"], "XX", ["Enter a valid 3-letter country code."]],
    [["data", "business", "address", "country"], "US", ["Enter a valid 3-letter country code."]],
    [["data", "business", "address", "country"], " ", ["This field may not be blank."]],
    [["data", "business", "address", "country"], 840, ["Not a valid string."]],
    [["data", "business", "tags"], "cafe", [str]],
    [["data", "business", "tags"], { a: "cafe" }, ['Expected a list of items but got type "dict".']],
    [["data", "business", "tags"], 3, ['Expected a list of items but got type "int".']],
    [["data", "business", "tags"], null, ["This field may not be null."]],
    [
      ["data", "business", "tags"],
      ["cafe", 7, ""],
      { 1: ["Not a valid string."], 2: ["This field may not be blank."] },
    ],
    [["data", "business"], "Blue Door", ['Expected a dictionary of items but got type "str".']],
    [
      ["data", "business", "address"],
      ["1 Market St"],
      ['Expected a dictionary of items but got type "list".'],
    ],
    [["data"], 1.5, ['Expected a dictionary of items but got type "float".']],
    [["data", "publishers"], [], ['Expected a dictionary of items but got type "list".']],
    [["data", "publishers"], null, ["This field may not be null."]],
    [
      ["data", "publishers", "example.com"],
      "https://example.com",
      ['Expected a dictionary of items but got type "str".'],
    ],
    [["data", "publishers", "example.com", "last_review_hashes"], "abc", [str]],
    [
      ["data", "publishers", "example.com", "last_review_hashes"],
      ["abc", false],
      { 1: ["Not a valid string."] },
    ],
    [["data", "publishers", "example.com", "first_page_only"], "maybe", ["Must be a valid boolean."]],
    [["data", "publishers", "example.com", "first_page_only"], 2, ["Must be a valid boolean."]],
    [["data", "publishers", "example.com", "first_page_only"], [], ["Must be a valid boolean."]],
    [["data", "publishers", "example.com", "first_page_only"], null, ["This field may not be null."]],
    [["data", "publishers", "example.com", "profile_key"], 17, ["Not a valid string."]],
    [["data", "publishers", "example.com", "profile_key"], null, ["This field may not be null."]],
    [["data", "publishers", "example.com", "profile_key"], "  ", [REQUIRED]],
    [["data", "publishers", "example.com", "profile_key"], "blue-door", ["Enter a valid URL."]],
    [["data", "publishers", "example.com", "profile_key"], "ftp://example.com/x", ["Enter a valid URL."]],
    [
      ["data", "publishers", "example.com", "profile_key"],
      "https://evil.test/example.com",
      ["Enter a URL on example.com or one of its subdomains."],
    ],
    [
      ["data", "publishers", "example.com", "persona"],
      "x",
      ['Expected a dictionary of items but got type "str".'],
    ],
    [["data", "publishers", "yelp.com", "persona", "additional_cookies", "login"], "x", [str]],
    [
      ["data", "publishers", "yelp.com", "persona", "additional_cookies", "login"],
      [],
      ["This list may not be empty."],
    ],
    [
      ["data", "publishers", "yelp.com", "persona", "additional_cookies", "login"],
      [{ name: "a" }],
      { 0: { value: [REQUIRED], domain: [REQUIRED] } },
    ],
    [
      ["data", "publishers", "yelp.com", "persona", "additional_cookies", "login"],
      ["c=1"],
      { 0: ['Expected a dictionary of items but got type "str".'] },
    ],
    // Collection options (issue 36): each invalid value under its own path, in submit's error shape.
    [["data", "publishers", "example.com", "since"], "yesterday", [SINCE]],
    [["data", "publishers", "example.com", "since"], "2026-02-30", [SINCE]],
    [["data", "publishers", "example.com", "since"], "2026-01-31T25:00:00Z", [SINCE]],
    [["data", "publishers", "example.com", "since"], "31/01/2026", [SINCE]],
    [["data", "publishers", "example.com", "since"], 1767225600000, ["Not a valid string."]],
    [["data", "publishers", "example.com", "since"], null, ["This field may not be null."]],
    [
      ["data", "publishers", "example.com", "max_reviews"],
      0,
      ["Ensure this value is greater than or equal to 1."],
    ],
    [
      ["data", "publishers", "example.com", "max_reviews"],
      -5,
      ["Ensure this value is greater than or equal to 1."],
    ],
    [["data", "publishers", "example.com", "max_reviews"], 2.5, ["A valid integer is required."]],
    [["data", "publishers", "example.com", "max_reviews"], "ten", ["A valid integer is required."]],
    [["data", "publishers", "example.com", "sort"], "best", ['"best" is not a valid choice.']],
    [["data", "publishers", "example.com", "sort"], "Newest", ['"Newest" is not a valid choice.']],
    [["data", "publishers", "example.com", "sort"], 3, ['"3" is not a valid choice.']],
    [["data", "publishers", "example.com", "sort"], null, ["This field may not be null."]],
    // A sort the publisher cannot give is refused, never ignored (GET /publishers lists each one's sorts).
    [
      ["data", "publishers", "example.com", "sort"],
      "relevant",
      ['example.com cannot be walked in the "relevant" order; it offers: newest.'],
    ],
    [["data", "lazy"], "perhaps", ["Must be a valid boolean."]],
    [["data", "lazy"], null, ["This field may not be null."]],
    [["job"], "App\\Jobs\\Other", ['"App\\Jobs\\Other" is not a valid choice.']],
    [["job"], "App\\\\Jobs\\\\RequestReviews", ['"App\\\\Jobs\\\\RequestReviews" is not a valid choice.']],
    [["job"], "", ['"" is not a valid choice.']],
    [["job"], 5, ['"5" is not a valid choice.']],
    [["job"], true, ['"True" is not a valid choice.']],
    [["job"], ["App\\Jobs\\RequestReviews"], ['"list" is not a valid choice.']],
    [["job"], null, ["This field may not be null."]],
  ];

  it.each(
    cases.map(([path, value, leaf]) => [`${path.join(".")} = ${JSON.stringify(value)}`, path, value, leaf]),
  )("%s", async (_name, path, value, leaf) => {
    await expectInvalid(withValue(fullBody(), path, value), nest(path, leaf));
  });

  it("refuses a sort the publisher cannot give, naming the ones it offers, beside other failures", async () => {
    const body = submitBody(apiKey, {
      "trustpilot.com": publisherConfig("trustpilot.com", {
        profile_key: "https://www.trustpilot.com/review/bluedoor.com",
        sort: "highest",
      }),
      "tripadvisor.com": publisherConfig("tripadvisor.com", {
        profile_key: "",
        sort: "lowest",
        max_reviews: 0,
      }),
    });
    await expectInvalid(body, {
      data: {
        publishers: {
          "trustpilot.com": {
            sort: ['trustpilot.com cannot be walked in the "highest" order; it offers: newest, relevant.'],
          },
          "tripadvisor.com": {
            sort: ['tripadvisor.com cannot be walked in the "lowest" order; it offers: newest.'],
            max_reviews: ["Ensure this value is greater than or equal to 1."],
          },
        },
      },
    });
  });

  it("accepts since as a date or date-time, max_reviews and every sort the publisher offers", async () => {
    const accepted: Record<string, unknown>[] = [
      { since: "2026-01-31" },
      { since: "2026-01-31T08:00:00Z" },
      { since: "2026-01-31T08:00:00.250+01:00" },
      { since: "2026-01-31T08:00" },
      { max_reviews: 1 },
      { max_reviews: "25" },
      { sort: "newest" },
    ];
    for (const options of accepted) {
      const res = await postJson(
        SUBMIT,
        submitBody(apiKey, { "example.com": publisherConfig("example.com", options) }),
      );
      expect(res.status, JSON.stringify(options)).toBe(201);
    }
    for (const sort of ["newest", "relevant", "highest", "lowest"]) {
      const res = await postJson(
        SUBMIT,
        submitBody(apiKey, {
          "yelp.com": publisherConfig("yelp.com", { sort, since: "2026-01-01", max_reviews: 5 }),
        }),
      );
      expect(res.status, sort).toBe(201);
    }
  });

  it("accepts the textual booleans DRF accepts", async () => {
    const values = ["true", "False", "yes", "off", 1, 0, "1", "0"];
    for (const first_page_only of values) {
      const res = await postJson(
        SUBMIT,
        submitBody(
          apiKey,
          { "example.com": publisherConfig("example.com", { first_page_only }) },
          { lazy: first_page_only },
        ),
      );
      expect(res.status, JSON.stringify(first_page_only)).toBe(201);
    }
  });
});

describe("submit: limits", () => {
  const hashes = (n: number) => Array.from({ length: n }, (_, i) => i.toString(16).padStart(32, "0"));
  const cookies = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `c${i}`, value: "v", domain: ".yelp.com" }));
  const publishers = (n: number) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`shop${i}.example`, publisherConfig(`shop${i}.example`)]),
    );

  it.each([
    [
      "foreign_key",
      ["data", "foreign_key"],
      "f".repeat(255),
      "f".repeat(256),
      ["Ensure this field has no more than 255 characters."],
    ],
    [
      "last_review_hashes",
      ["data", "publishers", "example.com", "last_review_hashes"],
      hashes(10_000),
      hashes(10_001),
      ["Ensure this field has no more than 10000 elements."],
    ],
    [
      "login cookies",
      ["data", "publishers", "yelp.com", "persona", "additional_cookies", "login"],
      cookies(50),
      cookies(51),
      ["Ensure this field has no more than 50 elements."],
    ],
    [
      "publishers",
      ["data", "publishers"],
      publishers(25),
      publishers(26),
      ["Ensure this field has no more than 25 elements."],
    ],
  ])("%s: at the limit 201, one over 400", async (_name, path, atLimit, overLimit, leaf) => {
    const ok = await postJson(SUBMIT, withValue(fullBody(), path, atLimit));
    expect(ok.status).toBe(201);
    await expectInvalid(withValue(fullBody(), path, overLimit), nest(path, leaf));
  });

  it("an api_key over 128 characters is a 400 before any key lookup", async () => {
    await expectInvalid(withValue(fullBody(), ["data", "api_key"], "k".repeat(129)), {
      data: { api_key: ["Ensure this field has no more than 128 characters."] },
    });
    // 128 characters pass the shape check and reach the key lookup, which refuses an unknown key.
    const res = await postJson(SUBMIT, withValue(fullBody(), ["data", "api_key"], "k".repeat(128)));
    expect(res.status).toBe(401);
  });
});

describe("submit: publisher keys", () => {
  it.each([
    "not a domain",
    "yelp",
    "https://yelp.com",
    "yelp.com/biz",
    "127.0.0.1",
    "-yelp.com",
    "yelp..com",
    "__proto__",
    "constructor",
  ])("%j is not a domain", async (key) => {
    const body = submitBody(apiKey, { [key]: publisherConfig("example.com") });
    await expectInvalid(body, { data: { publishers: { [key]: ["Enter a valid domain name."] } } });
  });

  it("an empty map is refused", async () => {
    await expectInvalid(submitBody(apiKey, {}), {
      data: { publishers: ["This dictionary may not be empty."] },
    });
  });

  it("two keys naming the same publisher are refused under the later key", async () => {
    const body = submitBody(apiKey, {
      "yelp.com": publisherConfig("yelp.com"),
      "WWW.Yelp.com": publisherConfig("yelp.com"),
    });
    await expectInvalid(body, {
      data: {
        publishers: {
          "WWW.Yelp.com": ['Duplicate publisher: "WWW.Yelp.com" is the same publisher as "yelp.com".'],
        },
      },
    });
  });

  it("errors of a publisher are reported under its canonical key", async () => {
    const body = submitBody(apiKey, {
      "WWW.Yelp.COM": publisherConfig("yelp.com", { first_page_only: "?" }),
    });
    await expectInvalid(body, {
      data: { publishers: { "yelp.com": { first_page_only: ["Must be a valid boolean."] } } },
    });
  });

  it("facebook.com and yelp.com accept an id as profile_key; a generic publisher only takes a URL", async () => {
    const ok = await postJson(
      SUBMIT,
      submitBody(apiKey, {
        "facebook.com": publisherConfig("facebook.com", { profile_key: "bluedoorcafe" }),
        "yelp.com": publisherConfig("yelp.com", { profile_key: "blue-door-cafe-san-francisco" }),
        "m.example.com": publisherConfig("example.com", {
          profile_key: "https://shop.m.example.com/reviews",
        }),
      }),
    );
    expect(ok.status).toBe(201);
  });

  it("a publisher without login rules needs no persona, and cookies it is given are accepted", async () => {
    const body = submitBody(apiKey, {
      "example.com": publisherConfig("example.com", {
        persona: { additional_cookies: { login: loginCookies("example.com") } },
      }),
      "example.org": publisherConfig("example.org", { persona: {} }),
    });
    expect((await postJson(SUBMIT, body)).status).toBe(201);
  });
});

describe("submit: all failing fields at once", () => {
  it("reports every failure of every level in one answer", async () => {
    const body = submitBody(apiKey, {
      "WWW.Yelp.com": {
        profile_key: "https://evil.test/x",
        last_review_hashes: "x",
        first_page_only: "maybe",
      },
      "not a domain": {},
      "example.com": { last_review_hashes: [], first_page_only: true },
    }) as Record<string, any>;
    delete body.data.business.address.street;
    body.data.business.address.country = "XX";
    body.data.foreign_key = "";
    body.job = "nope";
    await expectInvalid(body, {
      job: ['"nope" is not a valid choice.'],
      data: {
        foreign_key: ["This field may not be blank."],
        business: { address: { street: [REQUIRED], country: ["Enter a valid 3-letter country code."] } },
        publishers: {
          "yelp.com": {
            profile_key: ["Enter a URL on yelp.com or one of its subdomains."],
            last_review_hashes: ['Expected a list of items but got type "str".'],
            first_page_only: ["Must be a valid boolean."],
            persona: [REQUIRED],
          },
          "not a domain": ["Enter a valid domain name."],
          "example.com": { profile_key: [REQUIRED] },
        },
      },
    });
  });

  it("a missing api_key is reported together with the other failures, without a key lookup", async () => {
    const body = withValue(
      withValue(fullBody(), ["data", "api_key"], DELETE),
      ["data", "business", "name"],
      1,
    );
    await expectInvalid(body, { data: { api_key: [REQUIRED], business: { name: ["Not a valid string."] } } });
  });
});
