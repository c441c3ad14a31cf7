export class Context {
  #status = 200;
  private headers = new Map<string, string>();

  header = (name: string, value: string): this => {
    this.headers.set(name, value);
    return this;
  };

  status = (code: number): void => {
    this.#status = code;
  };

  json = (data: unknown): string => {
    this.header('content-type', 'application/json');
    return this.body(JSON.stringify(data));
  };

  body(text: string): string {
    return `${this.#status} ${text}`;
  }
}
