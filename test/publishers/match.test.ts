/**
 * The business matcher every lookup uses (src/publishers/kit/match/), one table per rule. The cases of
 * the four lookups' former matchers (Yelp, Trustpilot, Tripadvisor, Google Maps) are here, plus
 * names and addresses in other languages and scripts.
 */
import { describe, expect, it } from "vitest";
import {
  matchScore,
  NAME_THRESHOLD,
  nameSimilarity,
  postalAgreement,
  streetMatches,
  streetWords,
  words,
} from "../../src/publishers/kit/match";

describe("folding", () => {
  it.each([
    ["Königstraße 5, 80331 München", ["konigstrasse", "5", "80331", "munchen"]],
    ["Caffè Roma & Bar", ["caffe", "roma", "and", "bar"]],
    ["Tom's Diner", ["toms", "diner"]],
    ["GROSSE STRASSE / große Straße", ["grosse", "strasse", "grosse", "strasse"]],
    ["Smørrebrød København", ["smorrebrod", "kobenhavn"]],
    ["Kahveci Hacı Bekir, İstanbul", ["kahveci", "haci", "bekir", "istanbul"]],
    ["ΚΑΦΕΝΕΙΟΝ Καφενείον", ["καφενειον", "καφενειον"]],
    ["Кафе «Пушкинъ»", ["кафе", "пушкинъ"]],
    ["ブルードア・カフェ", ["ブルードア", "カフェ"]],
    ["블루 도어 카페", ["블루", "도어", "카페"]],
    ["नमस्ते कैफे", ["नमस्ते", "कैफे"]],
    ["バス停", ["バス停"]],
    ["مقهى الباب الأزرق", ["مقهى", "الباب", "الازرق"]],
  ])("%s → %j", (text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it("splits German compound streets and unifies street words", () => {
    expect(streetWords("Königstraße 5, 80331 München")).toEqual(["konig", "str", "5", "80331", "munchen"]);
    expect(streetWords("350 N. Main Avenue")).toEqual(["350", "n", "main", "ave"]);
  });
});

describe("name similarity (threshold " + NAME_THRESHOLD + ")", () => {
  it.each([
    // English: articles, case, accents, punctuation, "&", apostrophes, legal forms.
    ["Blue Door Cafe", "The Blue Door Café", true],
    ["Blue Door Cafe", "BLUE DOOR CAFE - SoMa", true],
    ["Blue Door Cafe", "BLUE DOOR CAFÉ, Inc.", true],
    ["Tom's Diner", "Toms Diner", true],
    ["Fish & Chips", "Fish and Chips", true],
    ["Blue Door Cafe", "Blue Door Tavern", false],
    ["Blue Door Cafe", "Red Door Cafe", false],
    ["Blue Door Cafe", "Blue Door Bakery", false],
    // A name held whole in the listing's (quarter or city added), or the listing's two-word name in ours.
    ["Dishoom", "Dishoom Covent Garden", true],
    ["Blue Door Cafe", "Blue Door", true],
    ["Blue Door Cafe", "Cafe", false],
    // A listing known by its web address.
    ["Blue Door Cafe", "bluedoorcafe.com", true],
    // German, French, Spanish, Turkish, Danish.
    ["Café Müller GmbH", "Cafe Muller", true],
    ["Bäckerei Groß", "Baeckerei Gross", false],
    ["Bäckerei Groß", "BÄCKEREI GROSS", true],
    ["Le Petit Zinc", "Petit Zinc", true],
    ["L'Ami Jean", "L’Ami Jean", true],
    ["Casa Lucio", "Taberna Lucio", false],
    ["Kahveci Hacı Bekir", "KAHVECİ HACI BEKİR", true],
    ["Smørrebrød Huset", "Smorrebrod Huset", true],
    // Greek, Cyrillic, Arabic.
    ["Καφενείον Το Μικρό", "ΚΑΦΕΝΕΙΟΝ ΤΟ ΜΙΚΡΟ", true],
    ["Кафе Пушкинъ", "Кафе «Пушкинъ»", true],
    ["Кафе Пушкинъ", "Кафе Чайка", false],
    ["مقهى الباب الأزرق", "مقهى الباب الازرق", true],
    // Scripts without spaces: compared by pairs of characters.
    ["蓝门咖啡", "蓝门咖啡馆", true],
    ["蓝门咖啡", "蓝门面包", false],
    ["ブルードアカフェ", "ブルードアカフェ 渋谷店", true],
    ["ブルードアカフェ", "レッドドアカフェ", false],
    ["블루 도어 카페", "블루도어 카페", true],
  ])("%s / %s alike: %s", (wanted, listed, same) => {
    expect(nameSimilarity(wanted, listed) >= NAME_THRESHOLD).toBe(same);
  });

  it("a listing's domain spells the name", () => {
    expect(nameSimilarity("Blue Door Cafe", "Something else", "www.bluedoorcafe.co.uk")).toBe(1);
    expect(nameSimilarity("Blue Door Cafe", "Something else", "www.reddoor.com")).toBeLessThan(
      NAME_THRESHOLD,
    );
  });
});

describe("streets", () => {
  it.each([
    ["1 Market St", "1 Market Street, Ste 200", true],
    ["1 Market St", "1 Market Street\nSan Francisco, CA 94105", true],
    ["1 Market St.", "Blue Door Cafe, 1 MARKET ST, San Francisco, CA 94105", true],
    ["1 Market Street, Suite 200", "1 Market St", true],
    ["350 N. Main Avenue", "350 North Main Ave", true],
    ["1 Market St", "10 Market St", false],
    ["11 Market St", "1 Market Street", false],
    ["1 Market St", "1 Mission St", false],
    ["1 Market St", "500 Other St, Oakland", false],
    ["1 Market St", "", false],
    ["Hauptstraße 5", "Hauptstrasse 5, 10115 Berlin", true],
    ["Hauptstraße 5", "Hauptstr. 5, 10827 Berlin", true],
    ["Hauptstraße 5", "Haupt Straße 7, 10827 Berlin", false],
    ["12 rue de Rivoli", "12 Rue de Rivoli, 75004 Paris", true],
    ["Calle de Alcalá 42", "Calle de Alcala, 42, 28014 Madrid", true],
    ["Keizersgracht 123", "Keizersgracht 132, Amsterdam", false],
    ["Тверская 26", "ул. Тверская, 26, Москва", true],
    ["Πανεπιστημίου 10", "ΠΑΝΕΠΙΣΤΗΜΙΟΥ 10, Αθήνα 106 71", true],
  ])("%s in %j: %s", (street, address, same) => {
    expect(streetMatches(street, address)).toBe(same);
  });
});

describe("postal codes", () => {
  it.each([
    ["94105", { postalCode: "94105-1234" }, "same"],
    ["94105-1234", { postalCode: "94105" }, "same"],
    ["SW1A 1AA", { postalCode: "sw1a1aa" }, "same"],
    ["EC1A 1BB", { postalCode: "ec1a1bb" }, "same"],
    ["94105", { postalCode: "94107" }, "different"],
    ["94105", { address: "1 Market St, San Francisco, CA 94105" }, "same"],
    ["94105", { address: "1 Market Street, San Francisco, CA 94105-1420" }, "same"],
    ["SW1A 1AA", { address: "Buckingham Palace, London SW1A 1AA England" }, "same"],
    ["94105", { address: "500 Other St, Oakland, CA 94607" }, "unknown"],
    ["94105", { address: "194105 Some Rd" }, "unknown"],
    ["150-0002", { address: "〒150-0002 東京都渋谷区渋谷2丁目" }, "same"],
    ["106 71", { postalCode: "10671" }, "same"],
    ["", { postalCode: "" }, "unknown"],
    ["", { postalCode: "94105" }, "unknown"],
  ] as const)("%s against %j: %s", (zip, listing, expected) => {
    expect(postalAgreement(zip, listing)).toBe(expected);
  });
});

describe("the decision", () => {
  const wanted = { name: "Blue Door Cafe", street: "1 Market St", zip: "94105" };
  it.each([
    [
      "name, street and postal code",
      { name: "Blue Door Café", address: "1 Market Street", postalCode: "94105" },
      3,
    ],
    [
      "name and street, no postal code given",
      { name: "The Blue Door Cafe", address: "1 Market Street, Suite 2" },
      2,
    ],
    [
      "name and postal code, street written elsewhere",
      { name: "Blue Door Cafe", address: "Ferry Building", postalCode: "94105" },
      2,
    ],
    [
      "the domain, street and postal code",
      { name: "bluedoorcafe.com", address: "1 Market St", postalCode: "94105" },
      3,
    ],
    [
      "a namesake with another postal code at the same street",
      { name: "Blue Door Cafe", address: "1 Market St", postalCode: "94607" },
      null,
    ],
    [
      "a namesake elsewhere without a postal code",
      { name: "Blue Door Cafe", address: "500 Castro St" },
      null,
    ],
    [
      "a neighbour with another name",
      { name: "Blue Door Bakery", address: "1 Market St", postalCode: "94105" },
      null,
    ],
    ["no name", { name: null, address: "1 Market St", postalCode: "94105" }, null],
  ] as const)("%s scores %s", (_case, listing, score) => {
    expect(matchScore(wanted, listing)).toBe(score);
  });

  it("in other scripts too", () => {
    expect(
      matchScore(
        { name: "ブルードアカフェ", street: "渋谷2丁目", zip: "150-0002" },
        { name: "ブルードアカフェ 渋谷店", address: "〒150-0002 東京都渋谷区渋谷2丁目" },
      ),
    ).not.toBeNull();
    expect(
      matchScore(
        { name: "Кафе Пушкинъ", street: "Тверской бульвар 26", zip: "125009" },
        { name: "Кафе «Пушкинъ»", postalCode: "127009" },
      ),
    ).toBeNull();
  });
});
