package app;

import java.util.HashMap;
import java.util.Map;

public class Cache {
    private final Map<String, String> map = new HashMap<>();

    public String get(String key) {
        return map.get(key);
    }

    public void put(String key, String value, long at) {
        map.put(key, value);
    }
}

class Clock {
    long now() {
        return System.currentTimeMillis();
    }
}
