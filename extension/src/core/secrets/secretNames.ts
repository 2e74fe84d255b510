/**
 * Which names mark a secret: environment variables (`GITHUB_TOKEN`, `PGPASSWORD`) and the keys of
 * assignments in output (`api_key: …`, `"clientSecret": "…"`, `password=…`). The documented list
 * (docs/secrets.md) is the endings below: a name is secret when it ends with one of them, after
 * camelCase is split (`apiKey` is API_KEY). Endings, not substrings, keep `TOKENIZERS_PARALLELISM`,
 * `GIT_ASKPASS`, `AWS_REGION`, `max_tokens` and `OLDPWD` out.
 */

/** Endings of a secret name, upper case, `_` between words. */
export const SECRET_NAME_ENDINGS: readonly string[] = [
  'TOKEN',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'PASSPHRASE',
  '_PASS',
  '_PWD',
  '_KEY',
  'APIKEY',
  'ACCESS_KEY_ID',
  '_AUTH',
  'CREDENTIAL',
  'PRIVATE_KEY',
  'CONNECTION_STRING',
];

/** Names secret as a whole though no ending says so. */
const SECRET_NAMES = new Set(['PASSWORD', 'PASSWD', 'SECRET', 'TOKEN', 'APIKEY', 'AUTH']);

/** Keys that end like a secret but name something public (database and cache keys, public keys). */
const PUBLIC_KEY_ENDINGS: readonly string[] = ['PUBLIC_KEY', 'PRIMARY_KEY', 'FOREIGN_KEY', 'SORT_KEY', 'PARTITION_KEY', 'CACHE_KEY', 'SIGNING_KEY_ID'];

/** `clientSecret`, `api-key`, `db.password` → CLIENT_SECRET, API_KEY, DB_PASSWORD. */
export function normalName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-.\s]+/g, '_')
    .toUpperCase();
}

export function isSecretName(name: string): boolean {
  const normal = normalName(name);
  if (PUBLIC_KEY_ENDINGS.some((ending) => normal.endsWith(ending))) return false;
  return SECRET_NAMES.has(normal) || SECRET_NAME_ENDINGS.some((ending) => normal.endsWith(ending));
}

/** Shorter values are too common in ordinary text to match literally (`true`, `1`, `dev`). */
export const MIN_LITERAL_CHARS = 6;

/** The values of the secret-named variables of an environment, longest first (so a value inside another is not matched first). */
export function secretValues(env: Readonly<Record<string, string | undefined>>): Array<{ readonly name: string; readonly value: string }> {
  const found = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_LITERAL_CHARS || !isSecretName(name)) continue;
    if (!found.has(value)) found.set(value, name);
  }
  return [...found].map(([value, name]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length);
}
