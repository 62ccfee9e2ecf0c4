import { declareProfile } from "../kit/profile";

const PAGE = "https://www.agoda.com/partners/partnersearch.aspx?hid=26210260";

/**
 * profile_key: a property id (Agoda's are whole numbers, `26210260`), or an agoda.com URL carrying
 * it in its query (`hid=`, `hotel_id=`, `hotelId=`). The canonical page is Agoda's own link by
 * property id (`partnersearch.aspx?hid=`), the one URL form that names the id; hotel pages
 * (`/<slug>/hotel/<city>.html`) do not.
 */
export const agodaProfile = declareProfile({
  urls: [
    { query: { hid: /^(?<hotelId>\d{1,12})$/ } },
    { query: { hotel_id: /^(?<hotelId>\d{1,12})$/ } },
    { query: { hotelId: /^(?<hotelId>\d{1,12})$/ } },
  ],
  ids: [/^(?<hotelId>\d{1,12})$/],
  page: "https://www.agoda.com/partners/partnersearch.aspx?hid={hotelId}",
  examples: [
    { input: "26210260", url: PAGE },
    {
      input:
        "https://www.agoda.com/grand-mercure-malang/hotel/malang-id.html?hotel_id=26210260&checkIn=2026-12-01",
      url: PAGE,
    },
    { input: "https://www.agoda.com/partners/partnersearch.aspx?hid=26210260", url: PAGE },
    { input: "https://www.agoda.com/api/en-us/pageparams/property?hotelId=26210260", url: PAGE },
    // A hotel page without the id in its query names no id the module can read.
    {
      input: "https://www.agoda.com/grand-mercure-malang/hotel/malang-id.html",
      error: "Enter the URL of a profile on agoda.com.",
    },
    { input: "grand-mercure-malang", error: "Enter a valid URL." },
  ],
});
