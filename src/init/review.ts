/** The mark `mcp-pd-check init` puts on every text it could only guess; lint-needs-review counts them. */
export const REVIEW = 'REVIEW:';
