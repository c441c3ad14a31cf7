package bank;

public interface Auditable {
    void audit(String event);
}
