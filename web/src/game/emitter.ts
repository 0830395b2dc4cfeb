// Typed events between the game page's modules: a module says what happened, the page
// decides what it means for the others.

type Handler<T> = (value: T) => void;

export class Emitter<M> {
  private handlers = new Map<keyof M, Set<Handler<never>>>();

  on<K extends keyof M>(kind: K, f: Handler<M[K]>): () => void {
    let set = this.handlers.get(kind);
    if (!set) this.handlers.set(kind, (set = new Set()));
    set.add(f as Handler<never>);
    return () => set!.delete(f as Handler<never>);
  }

  protected emit<K extends keyof M>(kind: K, value: M[K]) {
    for (const f of this.handlers.get(kind) ?? []) (f as Handler<M[K]>)(value);
  }
}
