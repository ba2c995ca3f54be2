export function journal(): string {
  return 'journal';
}
