// Which MCP clients let the model read a resource on its own, as shipped data: whether a server's
// progressive disclosure reaches a client's model depends on it. From public issue trackers and
// docs (2026); `mcp-pd-check explain reach` prints it with its sources. To update: change a row here
// (its source and date with it), and the table "Progressive disclosure in every client" of docs/adopting.md.

export interface ClientReach {
  client: string;
  /** Whether the client's model can read a resource by itself (else it only lists and calls tools). */
  readsResources: boolean;
  /** What it does, in a few words. */
  how: string;
  source: string;
  /** When the source said so. */
  date: string;
}

export const CLIENTS: readonly ClientReach[] = [
  {
    client: 'Claude Code',
    readsResources: true,
    how: 'its ListMcpResources and ReadMcpResource tools',
    source: 'Claude Code MCP docs',
    date: '2026',
  },
  {
    client: 'Codex (CLI, IDE)',
    readsResources: true,
    how: 'list_mcp_resources and read_mcp_resource',
    source: 'openai/codex PR #5239',
    date: '2025-10',
  },
  { client: 'Cursor', readsResources: true, how: 'resources/read', source: 'anomalyco/opencode #15535', date: '2026' },
  {
    client: 'Qwen Code',
    readsResources: true,
    how: 'read_mcp_resource',
    source: 'QwenLM/qwen-code PR #5781',
    date: '2026-06',
  },
  {
    client: 'VS Code (Copilot)',
    readsResources: false,
    how: 'resources only attached by the user',
    source: 'microsoft/vscode #291004 (open)',
    date: '2026',
  },
  {
    client: 'GitHub Copilot CLI',
    readsResources: false,
    how: 'tools only',
    source: 'github/copilot-cli #1803 (open)',
    date: '2026',
  },
  {
    client: 'Claude Desktop, claude.ai',
    readsResources: false,
    how: 'resources only attached by the user',
    source: 'modelcontextprotocol/python-sdk #1016',
    date: '2026',
  },
  { client: 'ChatGPT', readsResources: false, how: 'no resources', source: 'ignfab/geocontext #24', date: '2026' },
];

/** Where the table comes from and how to keep it true, for `explain reach`. */
export const CLIENT_REACH_NOTE =
  'From public issue trackers and docs (2026): each row names its source and date. To update it, change src/core/client-reach.ts (and the table in docs/adopting.md) when a client changes.';
