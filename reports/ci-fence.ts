/**
 * GitHub Actions stops reading workflow commands between `::stop-commands::<token>` and
 * `::<token>::`; with a random token, text inside cannot end the fence. A second line of defence
 * behind breakCiCommands, for logs only (files are written unfenced).
 */
export function fenceOffCommands(text: string, token: string | undefined): string {
  if (!token) return text;
  return `::stop-commands::${token}\n${text.endsWith('\n') ? text : `${text}\n`}::${token}::\n`;
}
