package app;

public class CachedService extends Service {
    public CachedService() {
        super(new Repository());
    }

    public String warm(String id) {
        clock.now();
        return load(id) + repositoryName();
    }

    private String repositoryName() {
        return "repo";
    }
}
