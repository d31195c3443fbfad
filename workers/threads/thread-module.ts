/**
 * Where a worker-thread module sits and how to start it: compiled (dist/) or source (tsx),
 * the thread module sits next to the module that starts it either way.
 */
export function threadModule(baseUrl: string, name: string): { filename: string; execArgv: string[] } {
  const source = baseUrl.endsWith('.ts');
  const filename = new URL(`./${name}.${source ? 'ts' : 'js'}`, baseUrl).href;
  const execArgv = source && !process.execArgv.some((a) => a.includes('tsx')) ? [...process.execArgv, '--import', 'tsx'] : process.execArgv;
  return { filename, execArgv };
}
