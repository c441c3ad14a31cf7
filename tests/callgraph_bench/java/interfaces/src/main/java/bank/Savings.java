package bank;

public class Savings implements Account, Auditable {
    private long cents;

    @Override
    public long balance() {
        return cents;
    }

    @Override
    public void deposit(long amount) {
        cents += amount;
        audit("deposit " + amount);
    }

    @Override
    public void audit(String event) {
        Log.write(event);
    }
}
