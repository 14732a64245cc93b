// The one function of swagger2openapi (no types of its own) the contract loader calls.
declare module 'swagger2openapi' {
  interface Options {
    patch?: boolean;
    warnOnly?: boolean;
    /** resolve to the OpenAPI object itself, not the options holding it */
    direct?: boolean;
    resolve?: boolean;
  }
  const converter: { convertObj(doc: Record<string, unknown>, options: Options): Promise<Record<string, unknown>> };
  export default converter;
}
