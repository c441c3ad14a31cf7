package bank;

public interface Account {
    long balance();

    void deposit(long amount);

    default boolean canWithdraw(long amount) {
        return balance() >= amount;
    }
}
