type Handler = (payload: string) => void;

export class Emitter {
  private handlers: Handler[] = [];

  on(handler: Handler): () => void {
    this.handlers.push(handler);
    return () => this.off(handler);
  }

  off(handler: Handler): void {
    this.handlers = this.handlers.filter((h) => h !== handler);
  }

  emit(payload: string): void {
    this.handlers.forEach((h) => h(payload));
  }
}

export function once(emitter: Emitter, handler: Handler): void {
  const unsubscribe = emitter.on((payload) => {
    unsubscribe();
    handler(payload);
  });
}
