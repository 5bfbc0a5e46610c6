// Fake secrets, as a CI job would hold them: what the leak tests pass to the checker and then look
// for in everything it wrote.

export const TOKEN = 'tok_4f9a8b7c6d5e4f3a2b1c0d';
export const DB_PASSWORD = 'pw9f8e7d6c5b4a';
export const BEARER = 'abcdefghijklmnop1234567890';
export const GITHUB_LIKE = `ghp_${'x1Y2z3'.repeat(6)}`;
/** The checker's environment in the leak tests: a token, and a password inside a URL. */
export const SECRET_ENV = {
  MCP_PD_FAKE_API_TOKEN: TOKEN,
  DATABASE_URL: `postgres://app:${DB_PASSWORD}@db.example/app`,
};
