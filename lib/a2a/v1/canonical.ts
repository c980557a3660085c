/**
 * What an A2A 1.0 agent card signature covers, pure (the 1.0 specification, "Agent Card
 * signing"): the card as the 1.0 schema sees it (its fields only, in their ProtoJSON form, empty
 * values left out), without `signatures`, serialized by RFC 8785 (JSON Canonicalization Scheme).
 * So a verifier that reads the card with the 1.0 types (the official SDK's does) recomputes the
 * same bytes, whatever a 0.3 client's fields (`url`, `preferredTransport`, `security`, …) beside them.
 */

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : undefined);
const obj = (v: unknown) => (isPlainObject(v) ? v : undefined);
const pick = <T>(v: unknown, f: (o: Record<string, unknown>) => T) => (isPlainObject(v) ? f(v) : undefined);
const list = <T>(v: unknown, f: (o: Record<string, unknown>) => T) => (Array.isArray(v) ? v.filter(isPlainObject).map(f) : undefined);

const requirement = (r: Record<string, unknown>) => ({
  schemes: pick(r.schemes, (s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, { list: pick(v, (l) => strings(l.list)) }]))),
});

/** The one security scheme kind a 1.0 card names (its `oneof`), with that kind's fields. */
const securityScheme = (s: Record<string, unknown>) => {
  if (isPlainObject(s.httpAuthSecurityScheme)) {
    const h = s.httpAuthSecurityScheme;
    return { httpAuthSecurityScheme: { description: str(h.description), scheme: str(h.scheme), bearerFormat: str(h.bearerFormat) } };
  }
  if (isPlainObject(s.apiKeySecurityScheme)) {
    const a = s.apiKeySecurityScheme;
    return { apiKeySecurityScheme: { description: str(a.description), location: str(a.location), name: str(a.name) } };
  }
  // The others (OAuth 2, OpenID Connect, mTLS) are not on this card.
  return {};
};

/** The card's fields of the 1.0 schema, as its ProtoJSON writes them. */
export function v1CardFields(card: Record<string, unknown>) {
  return {
    name: str(card.name),
    description: str(card.description),
    supportedInterfaces: list(card.supportedInterfaces, (i) => ({ url: str(i.url), protocolBinding: str(i.protocolBinding), tenant: str(i.tenant), protocolVersion: str(i.protocolVersion) })),
    provider: pick(card.provider, (p) => ({ url: str(p.url), organization: str(p.organization) })),
    version: str(card.version),
    documentationUrl: str(card.documentationUrl),
    capabilities: pick(card.capabilities, (c) => ({
      streaming: bool(c.streaming),
      pushNotifications: bool(c.pushNotifications),
      extensions: list(c.extensions, (e) => ({ uri: str(e.uri), description: str(e.description), required: e.required === true ? true : undefined, params: obj(e.params) })),
      extendedAgentCard: bool(c.extendedAgentCard),
    })),
    securitySchemes: pick(card.securitySchemes, (s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, isPlainObject(v) ? securityScheme(v) : {}]))),
    securityRequirements: list(card.securityRequirements, requirement),
    defaultInputModes: strings(card.defaultInputModes),
    defaultOutputModes: strings(card.defaultOutputModes),
    skills: list(card.skills, (k) => ({
      id: str(k.id),
      name: str(k.name),
      description: str(k.description),
      tags: strings(k.tags),
      examples: strings(k.examples),
      inputModes: strings(k.inputModes),
      outputModes: strings(k.outputModes),
      securityRequirements: list(k.securityRequirements, requirement),
    })),
    iconUrl: str(card.iconUrl),
  };
}

/** Leaves out what is empty: "", null, undefined, and arrays and objects left with nothing. */
export function withoutEmpty(v: unknown): unknown {
  if (v === '' || v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    const kept = v.map(withoutEmpty).filter((x) => x !== undefined);
    return kept.length ? kept : undefined;
  }
  if (isPlainObject(v)) {
    const kept = Object.entries(v).flatMap(([k, x]) => {
      const c = withoutEmpty(x);
      return c === undefined ? [] : [[k, c] as const];
    });
    return kept.length ? Object.fromEntries(kept) : undefined;
  }
  return v;
}

/** RFC 8785: keys sorted by UTF-16 code units, no whitespace, numbers and strings as ECMAScript writes them. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) throw new Error('RFC 8785 has no non-finite numbers');
  return JSON.stringify(v ?? null);
}

/** The bytes an agent card's signatures sign (its `signatures` never among them). */
export function cardSigningPayload(card: Record<string, unknown>): string {
  return canonicalJson(withoutEmpty(v1CardFields(card)) ?? {});
}
