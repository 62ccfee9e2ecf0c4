import { describe, expect, it } from "vitest";
import { facebook } from "../../../src/publishers/facebook";

const resolve = (key: string) => facebook.resolveProfileKey(key, "facebook.com");

describe("facebook.com profile_key", () => {
  it.each([
    ["bluedoorcafe", "https://www.facebook.com/bluedoorcafe/reviews"],
    ["Blue.Door.Cafe", "https://www.facebook.com/Blue.Door.Cafe/reviews"],
    ["104729361234567", "https://www.facebook.com/104729361234567/reviews"],
    ["https://www.facebook.com/bluedoorcafe", "https://www.facebook.com/bluedoorcafe/reviews"],
    [
      "https://m.facebook.com/bluedoorcafe/reviews/?ref=page_internal",
      "https://www.facebook.com/bluedoorcafe/reviews",
    ],
    [
      "https://www.facebook.com/pages/Blue-Door-Cafe/104729361234567",
      "https://www.facebook.com/104729361234567/reviews",
    ],
    [
      "https://www.facebook.com/profile.php?id=104729361234567",
      "https://www.facebook.com/profile.php?id=104729361234567&sk=reviews",
    ],
  ])("%s → %s", (key, url) => {
    expect(resolve(key)).toEqual({ url });
  });

  it.each([
    ["https://www.facebook.com/", "Enter the URL of a profile on facebook.com."],
    ["https://www.facebook.com/groups/123", "Enter the URL of a profile on facebook.com."],
    ["https://www.facebook.com/profile.php", "Enter the URL of a profile on facebook.com."],
    ["https://www.facebook.com/pages/Blue-Door-Cafe", "Enter the URL of a profile on facebook.com."],
    ["https://www.yelp.com/biz/blue-door", "Enter a URL on facebook.com or one of its subdomains."],
    ["blue door cafe", "Enter a valid URL."],
    ["login", "Enter a valid URL."],
  ])("refuses %s", (key, error) => {
    expect(resolve(key)).toEqual({ error });
  });
});
