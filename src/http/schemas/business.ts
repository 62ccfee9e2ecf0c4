import { z } from "@hono/zod-openapi";
import { isCountryCode } from "../../core/countries";
import type { Business } from "../../core/tasks/business";
import { MSG, drfList, drfObject, drfString } from "../../core/validation";

export const AddressSchema = drfObject({
  street: drfString({ max: 255 }),
  city: drfString({ max: 255 }),
  state: drfString({ max: 255 }),
  zip: drfString({ max: 32 }),
  country: drfString()
    .refine(isCountryCode, MSG.country)
    .transform((c) => c.toUpperCase()),
}).openapi("Address", {
  example: { street: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", country: "USA" },
});

export const BusinessSchema = drfObject({
  id: drfString({ max: 255 }),
  name: drfString({ max: 255 }),
  address: AddressSchema,
  phone: drfString({ max: 64 }),
  description: drfString({ max: 10_000 }),
  tags: drfList(drfString({ max: 255 }), { max: 100 }),
}).openapi("Business");

export type { Address, Business } from "../../core/tasks/business";

/** The business the request examples of the OpenAPI document use (submit, create-monitor). */
export const EXAMPLE_BUSINESS = {
  id: "biz-42",
  name: "Blue Door Cafe",
  address: { street: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", country: "USA" },
  phone: "+1 415 555 0100",
  description: "Neighbourhood cafe",
  tags: ["cafe", "breakfast"],
};

// The schema's output must be the domain's Business: a field added to one and not the other fails here.
type SchemaMatchesDomain<T extends Business> = T;
export type ValidatedBusiness = SchemaMatchesDomain<z.output<typeof BusinessSchema>>;
