export interface User {
  id: string;
  name: string;
}

export interface UserRepo {
  find(id: string): User | undefined;
  save(user: User): void;
}

export class MemoryRepo implements UserRepo {
  private users = new Map<string, User>();

  find(id: string): User | undefined {
    return this.users.get(id);
  }

  save(user: User): void {
    this.users.set(user.id, user);
  }
}
