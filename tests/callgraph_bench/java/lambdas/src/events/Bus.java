package events;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

public class Bus {
    private final List<Consumer<String>> listeners = new ArrayList<>();

    public void subscribe(Consumer<String> listener) {
        listeners.add(listener);
    }

    public void publish(String event) {
        listeners.forEach(l -> l.accept(event));
        log(event);
    }

    private void log(String event) {
        System.out.println("published " + event);
    }
}
