/** The keys the provider fakes accept (test-only values), shared by the fakes and the tests. */
export const FAKE_KEYS = {
  zyte: "zk_test_4f7a9c1e2b",
  brightdata: "bd_test_8e21d0c7aa",
  scrapfly: "scp-test-6d3b5f90e1",
} as const;
export const FAKE_BRIGHTDATA_ZONE = "web_unlocker_test";

/** The settings that give the Worker every provider: keys, zone (PROVIDER_ORIGINS is set for all tests). */
export const PROVIDER_SECRETS = {
  ZYTE_API_KEY: FAKE_KEYS.zyte,
  BRIGHTDATA_API_KEY: FAKE_KEYS.brightdata,
  SCRAPFLY_API_KEY: FAKE_KEYS.scrapfly,
  BRIGHTDATA_ZONE: FAKE_BRIGHTDATA_ZONE,
};

/** A domain served by the fakes' own "walled" site: it refuses any request not relayed by a provider fake. */
export const WALLED_DOMAIN = "walled.test";
