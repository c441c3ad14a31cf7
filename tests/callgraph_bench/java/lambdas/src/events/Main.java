package events;

public class Main {
    static int received = 0;

    static void count(String event) {
        received++;
    }

    static String shout(String s) {
        return s.toUpperCase();
    }

    public static void main(String[] args) {
        Bus bus = new Bus();
        bus.subscribe(e -> System.out.println(shout(e)));
        bus.subscribe(Main::count);
        bus.subscribe(new java.util.function.Consumer<String>() {
            @Override
            public void accept(String e) {
                count(shout(e));
            }
        });
        Runnable later = () -> bus.publish("ready");
        later.run();
    }
}
