import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, post, postJson, publisherConfig, submitBody } from "../helpers/api";

const SUBMIT = "/submit/request-reviews/";
let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ plan: "unlimited" }));
});

/** Publisher entries as short as a 1 MiB body allows many of (`"p1.io":{}`), each failing three ways. */
function manyPublishers(n: number): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}.io`, {}]));
}

describe("submit: oversized publisher maps", () => {
  it("69,408 entries without an api_key: the documented 400, counted before any entry is checked", async () => {
    const body = submitBody(apiKey, manyPublishers(69_408));
    delete (body.data as Record<string, unknown>).api_key;
    const raw = JSON.stringify(body);
    expect(raw.length).toBeLessThan(1024 * 1024);
    const res = await post(SUBMIT, raw);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "Invalid payload",
      details: {
        data: {
          api_key: ["This field is required."],
          publishers: ["Ensure this field has no more than 25 elements."],
        },
      },
    });
  });

  it("69,408 entries with a valid key: the same 400", async () => {
    const res = await postJson(SUBMIT, submitBody(apiKey, manyPublishers(69_408)));
    expect(res).toMatchObject({
      status: 400,
      body: {
        error: "Invalid payload",
        details: { data: { publishers: ["Ensure this field has no more than 25 elements."] } },
      },
    });
  });
});

describe("submit: oversized lists", () => {
  it("200,000 bad review hashes and 200,000 bad cookies: one count message each, no 500", async () => {
    const body = submitBody(apiKey, {
      "yelp.com": publisherConfig("yelp.com", {
        last_review_hashes: Array(200_000).fill(0),
        persona: { additional_cookies: { login: Array(200_000).fill(0) } },
      }),
    });
    const res = await postJson(SUBMIT, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "Invalid payload",
      details: {
        data: {
          publishers: {
            "yelp.com": {
              last_review_hashes: ["Ensure this field has no more than 10000 elements."],
              persona: { additional_cookies: { login: ["Ensure this field has no more than 50 elements."] } },
            },
          },
        },
      },
    });
  });
});

describe("submit: login cookies", () => {
  const login = (publisher: string, cookies: unknown[]) =>
    submitBody(apiKey, {
      [publisher]: publisherConfig(publisher, { persona: { additional_cookies: { login: cookies } } }),
    });
  const cookieErrors = (publisher: string, errors: Record<string, unknown>) => ({
    error: "Invalid payload",
    details: {
      data: { publishers: { [publisher]: { persona: { additional_cookies: { login: errors } } } } },
    },
  });

  it("refuses names and values that are not RFC 6265 syntax", async () => {
    const res = await postJson(
      SUBMIT,
      login("yelp.com", [
        { name: "session", value: "abc\r\nSet-Cookie: admin=1", domain: ".yelp.com" },
        { name: "se ssion", value: "ok", domain: ".yelp.com" },
        { name: "a;b", value: "x;y", domain: ".yelp.com" },
        { name: "ok", value: 'has"quote', domain: ".yelp.com" },
        { name: "ok", value: "back\\slash", domain: ".yelp.com" },
        { name: "ok", value: "sp ace", domain: ".yelp.com" },
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      cookieErrors("yelp.com", {
        0: { value: ["Enter a valid cookie value."] },
        1: { name: ["Enter a valid cookie name."] },
        2: { name: ["Enter a valid cookie name."], value: ["Enter a valid cookie value."] },
        3: { value: ["Enter a valid cookie value."] },
        4: { value: ["Enter a valid cookie value."] },
        5: { value: ["Enter a valid cookie value."] },
      }),
    );
  });

  it("refuses cookie domains off the publisher's domain, and domains that are not domains", async () => {
    const res = await postJson(
      SUBMIT,
      login("yelp.com", [
        { name: "a", value: "1", domain: ".evil.com" },
        { name: "b", value: "1", domain: "notyelp.com" },
        { name: "c", value: "1", domain: ".com" },
        { name: "d", value: "1", domain: "http://yelp.com/" },
        { name: "e", value: "1", domain: ".yelp.com" },
      ]),
    );
    const offDomain = ["Enter a domain that is yelp.com, one of its subdomains or a parent domain."];
    expect(res).toMatchObject({ status: 400 });
    expect(res.body).toEqual(
      cookieErrors("yelp.com", {
        0: { domain: offDomain },
        1: { domain: offDomain },
        2: { domain: ["Enter a valid domain name."] },
        3: { domain: ["Enter a valid domain name."] },
      }),
    );
  });

  it("accepts the publisher's domain, its subdomains and parents, and quoted or empty values", async () => {
    const ok = [
      { name: "a", value: "1", domain: "yelp.com" },
      { name: "b", value: '"quoted=value"', domain: ".yelp.com" },
      { name: "c", value: "", domain: "m.yelp.com" },
      { name: "__Host-x", value: "eyJhbGciOi.J9-_~!#$%&'()*+/:<=>?@[]^`{|}", domain: "YELP.com." },
    ];
    expect((await postJson(SUBMIT, login("yelp.com", ok))).status).toBe(201);
    const parent = submitBody(apiKey, {
      "maps.google.com": publisherConfig("maps.google.com", {
        profile_key: "https://maps.google.com/?cid=123",
        persona: { additional_cookies: { login: [{ name: "SID", value: "x", domain: ".google.com" }] } },
      }),
    });
    expect(await postJson(SUBMIT, parent)).toMatchObject({ status: 201 });
  });
});
