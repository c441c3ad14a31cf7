export class User {
  constructor(public name: string) {}

  greet(): string {
    return `hi ${this.name}`;
  }
}

export class Api {
  async fetchUser(id: number): Promise<User> {
    const raw = await this.get(`/users/${id}`);
    return new User(raw);
  }

  private async get(path: string): Promise<string> {
    return path;
  }
}
