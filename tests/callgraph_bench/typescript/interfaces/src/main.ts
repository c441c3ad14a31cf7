import { MemoryRepo } from './repo';
import { UserService, Notifier } from './service';

class ConsoleNotifier implements Notifier {
  notify(user: { name: string }, message: string): void {
    console.log(user.name, message);
  }
}

export function main(): void {
  const repo = new MemoryRepo();
  repo.save({ id: '1', name: 'ada' });
  const service = new UserService(repo).attach(new ConsoleNotifier());
  service.rename('1', 'grace');
}
