/** A problem with the command line itself: the command exits 2 with this message, nothing sent. */
export class ArgumentError extends Error {}
