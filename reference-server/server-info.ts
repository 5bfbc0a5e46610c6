export const SERVER_NAME = 'mcp-pd-reference-server';
export const SERVER_VERSION = '0.1.0';
