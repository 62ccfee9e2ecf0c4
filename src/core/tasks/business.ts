/**
 * The business a request is about, as submitted and as echoed by retrieve. The HTTP layer's zod
 * schema (src/http/schemas/business.ts) validates it and is checked against this shape at compile
 * time, so the domain never depends on the HTTP layer for it.
 */
export interface Address {
  street: string;
  city: string;
  state: string;
  zip: string;
  /** ISO 3166-1 alpha-3, upper case. */
  country: string;
}

export interface Business {
  id: string;
  name: string;
  address: Address;
  phone: string;
  description: string;
  tags: string[];
}
