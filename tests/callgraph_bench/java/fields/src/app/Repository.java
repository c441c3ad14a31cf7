package app;

public class Repository {
    public String fetch(String id) {
        return "row-" + id;
    }
}
