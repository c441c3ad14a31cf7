import { User, UserRepo } from './repo';

export interface Notifier {
  notify(user: User, message: string): void;
}

export class UserService {
  private notifier?: Notifier;

  constructor(private readonly repo: UserRepo) {}

  attach(notifier: Notifier): this {
    this.notifier = notifier;
    return this;
  }

  rename(id: string, name: string): User | undefined {
    const user = this.repo.find(id);
    if (!user) return undefined;
    const renamed = { ...user, name };
    this.repo.save(renamed);
    this.notifier?.notify(renamed, 'renamed');
    return renamed;
  }
}
