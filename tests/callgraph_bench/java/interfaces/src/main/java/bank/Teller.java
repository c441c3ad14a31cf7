package bank;

import java.util.List;

public class Teller {
    private final Auditable auditor;

    public Teller(Auditable auditor) {
        this.auditor = auditor;
    }

    public void payAll(List<Account> accounts, long amount) {
        for (Account account : accounts) {
            if (account.canWithdraw(0)) {
                account.deposit(amount);
            }
        }
        auditor.audit("paid " + accounts.size());
    }

    public static void main(String[] args) {
        Savings savings = new Savings();
        Teller teller = new Teller(savings);
        teller.payAll(List.of(savings), 100);
        savings.deposit(5);
        System.out.println(savings.canWithdraw(10));
    }
}
