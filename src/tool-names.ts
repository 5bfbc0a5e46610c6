/** MCP tool-name rules (tools spec, "Tool Names"): SHOULD be 1–128 characters of A-Z a-z 0-9 _ - . */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Why a name breaks the rules, in words; undefined when it follows them. */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > 128) return `is ${name.length} characters long (at most 128)`;
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))];
  if (bad.length) return `contains ${bad.map((c) => (c === ' ' ? 'a space' : JSON.stringify(c))).join(', ')}; only A-Z, a-z, 0-9, _, - and . are allowed`;
  return undefined;
}
