package app;

public class Service {
    private final Repository repository;
    private final Cache cache = new Cache();
    protected Clock clock;

    public Service(Repository repository) {
        this.repository = repository;
        this.clock = new Clock();
    }

    public String load(String id) {
        String hit = cache.get(id);
        if (hit != null) {
            return hit;
        }
        String value = repository.fetch(id);
        this.cache.put(id, value, clock.now());
        return value;
    }
}
