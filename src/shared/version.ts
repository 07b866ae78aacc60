declare const __APP_VERSION__: string;

/** The application's version, injected at build time from package.json. */
export const APP_VERSION: string = __APP_VERSION__;
export const APP_NAME = 'Scriptorium';
export const USER_AGENT = `${APP_NAME}/${APP_VERSION} (bulk transcript exporter)`;
