// Nx runs offline here: no cloud, no daemon, no analytics prompts.
export const nxEnv = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false', NX_PREFER_TS_NODE: 'true' };
